"""``thrifty bench speculative --prompts FILE``: a user's own chats as workloads; bad files are plain errors
(checked before the model loads)."""

from __future__ import annotations

import json

import pytest

from benchmarks.engine.speculative import load_prompts, main


def _line(**item) -> str:
    return json.dumps(item)


def test_prompts_group_by_workload_in_file_order() -> None:
    chat = [{"role": "user", "content": "Repeat this: a b c"}]
    text = "\n".join([_line(workload="edit", messages=chat), "", _line(messages=chat),
                      _line(workload="edit", messages=[{"role": "system", "content": "x"}, *chat])])
    workloads = load_prompts(text)
    assert list(workloads) == ["edit", "custom"]
    assert len(workloads["edit"]) == 2 and workloads["custom"] == [chat]


@pytest.mark.parametrize(("text", "needle"), [
    ("{not json", "line 1: not JSON"),
    (_line(messages=[]), "line 1: expected an object with a non-empty \"messages\" list"),
    ("\n" + _line(messages=[{"role": "user"}]), "line 2: every message needs"),
    (_line(workload="a,b", messages=[{"role": "user", "content": "x"}]), "without commas"),
    ("\n\n", "no prompts"),
])
def test_bad_prompt_files_name_the_line(text: str, needle: str) -> None:
    with pytest.raises(ValueError, match=needle.replace("(", r"\(")):
        load_prompts(text)


def test_cli_refuses_a_bad_file_or_an_unknown_workload(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("[1, 2]\n")
    assert main(["--prompts", str(bad)]) == 2
    assert "--prompts" in capsys.readouterr().err
    assert main(["--prompts", str(tmp_path / "missing.jsonl")]) == 2
    good = tmp_path / "good.jsonl"
    good.write_text(_line(workload="edit", messages=[{"role": "user", "content": "x"}]) + "\n")
    assert main(["--prompts", str(good), "--workloads", "copy"]) == 2
    assert "unknown workload(s) copy; known: edit" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "needle"), [
    (["--max-tokens", "1"], "--max-tokens must be at least 2"),
    (["--max-tokens", "-5"], "--max-tokens must be at least 2"),
    (["--batch", "0"], "--batch must be at least 1"),
    (["--modes", "single,bogus"], "unknown mode(s) 'bogus'"),
])
def test_cli_refuses_values_that_leave_nothing_to_measure(argv: list[str], needle: str, capsys) -> None:
    assert main(argv) == 2  # before the model loads
    assert needle in capsys.readouterr().err
