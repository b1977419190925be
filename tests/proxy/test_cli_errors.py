"""The ``thrifty`` command line on bad input: plain one-line messages, no tracebacks, no secrets."""

from __future__ import annotations

import pytest

from proxy.cli import main

SECRET_URL = "postgresql+asyncpg://root:s3cretpw@127.0.0.1:1/x"  # nothing listens on port 1


def test_db_upgrade_takes_plain_sqlite_and_postgresql_urls(tmp_path, capsys, pg_database):
    assert main(["db", "upgrade", "--database-url", f"sqlite:///{tmp_path / 'x.db'}"]) == 0
    assert f"sqlite+aiosqlite:///{tmp_path / 'x.db'} is up to date" in capsys.readouterr().out
    plain = pg_database.replace("postgresql+asyncpg://", "postgresql://")
    assert main(["db", "upgrade", "--database-url", plain]) == 0
    assert "is up to date" in capsys.readouterr().out


@pytest.mark.parametrize(("url", "message", "rc"), [
    ("/tmp/x.db", "cannot use database URL '/tmp/x.db': not a URL", 2),
    ("sqlite+pysqlite:////tmp/x.db", "is synchronous", 2),
    ("mysql://root:s3cretpw@h/db", "cannot use database URL 'mysql://root:••••••@h/db'", 2),
    (SECRET_URL, "cannot upgrade the database at postgresql+asyncpg://root:••••••@127.0.0.1:1/x", 1),
])
def test_db_upgrade_refuses_unusable_urls_plainly_and_masks_passwords(capsys, url, message, rc):
    assert main(["db", "upgrade", "--database-url", url]) == rc
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert message in text and "s3cretpw" not in text and "Traceback" not in text
    assert len(captured.err.strip().splitlines()) == 1


def test_db_upgrade_refuses_a_missing_folder_instead_of_creating_it(tmp_path, capsys):
    target = tmp_path / "no-such" / "x.db"
    assert main(["db", "upgrade", "--database-url", f"sqlite+aiosqlite:///{target}"]) == 2
    assert "no folder" in capsys.readouterr().err and not target.parent.exists()


def test_db_upgrade_still_creates_the_default_data_dir(tmp_path, monkeypatch, capsys):
    data = tmp_path / "fresh" / "data"
    monkeypatch.setenv("THRIFTY_DATA_DIR", str(data))
    monkeypatch.delenv("THRIFTY_DATABASE__URL", raising=False)
    assert main(["db", "upgrade"]) == 0
    assert (data / "thrifty.db").is_file()


def test_export_logs_refuses_a_missing_sqlite_file_and_masks_passwords(tmp_path, capsys):
    missing = tmp_path / "none.db"
    out = str(tmp_path / "o.jsonl")
    assert main(["router", "export-logs", "--database-url", f"sqlite+aiosqlite:///{missing}", "--out", out]) == 2
    assert "no database file at" in capsys.readouterr().err and not missing.exists()
    assert main(["router", "export-logs", "--database-url", SECRET_URL, "--out", out]) == 2
    err = capsys.readouterr().err
    assert "root:••••••@" in err and "s3cretpw" not in err and "Traceback" not in err


def test_proxy_serve_with_an_unreachable_database_says_so_in_one_line(tmp_path, capsys):
    config = tmp_path / "t.toml"
    config.write_text(f'data_dir = "{tmp_path}"\n[database]\nurl = "{SECRET_URL}"\n')
    assert main(["proxy", "serve", "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("thrifty: cannot reach the database at postgresql+asyncpg://root:••••••@127.0.0.1:1/x")
    assert len(err.splitlines()) == 1 and "s3cretpw" not in err


def test_proxy_serve_checks_a_plain_postgresql_url_with_its_async_driver(tmp_path, monkeypatch, pg_database):
    from proxy import cli

    plain = pg_database.replace("postgresql+asyncpg://", "postgresql://")
    config = tmp_path / "t.toml"
    config.write_text(f'data_dir = "{tmp_path}"\n[database]\nurl = "{plain}"\n')
    served = []
    monkeypatch.setattr(cli, "run_proxy", lambda settings: served.append(settings.database_url))
    assert main(["proxy", "serve", "--config", str(config)]) == 0
    assert served == [pg_database]


@pytest.mark.parametrize("argv", [
    ["kv-size", "--seq-len", "-5", "--batch", "8"],
    ["kv-size", "--seq-len", "16", "--batch", "0"],
])
def test_kv_size_refuses_non_positive_sizes(capsys, argv):
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    assert "must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["eval", "cache", "--thresholds", "abc"],
    ["eval", "cache", "--sizes", "abc"],
    ["router", "train-escalation", "--data-dir", "/nonexistent", "--out", "/tmp/e.json", "--c", "-1"],
])
def test_bad_numbers_are_usage_errors(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err
