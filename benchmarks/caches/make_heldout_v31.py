#!/usr/bin/env python3
"""Held-out evaluation set v31 for the semantic prompt cache (written blind).

Theme: what software developers and operators type into a coding assistant
day to day -- pasted error messages and stack-trace lines, command-line flags,
HTTP status codes and methods, API endpoints, environment variables, config
fragments (YAML / JSON / TOML / INI / nginx / Dockerfile), file paths, ports,
language and library versions, log levels, git operations, SQL and shell
one-liners, Docker / Kubernetes / CI settings and cloud services, across
Python, JavaScript/TypeScript, Go, Rust, Java, SQL, bash, git, Docker,
Kubernetes, nginx, Terraform and GitHub Actions.  Prompts mix one-line
questions, questions with inline code spans and multi-line prompts with a
pasted snippet, log line or config fragment.

Every template and word list in this file was written blind, from scratch,
without looking at any other data set, code, test or documentation of the
project.

Two parts:

* ``text_pairs`` -- 200 near-miss pairs (10 categories x 20) that must NOT be
  served from cache: the two prompts share almost every word but need a
  different answer.  Categories: cli_flag_change,
  http_status_or_method_change, version_change, error_token_change,
  config_value_change, path_port_env_change, operator_change,
  source_target_swap, requested_action_change, scope_environment_change.
* ``positives`` -- 160 true paraphrase pairs (8 categories x 20) that a
  careful developer would answer identically, so the cache SHOULD serve the
  stored answer.  Categories: reworded_question, snippet_question_order,
  greeting_politeness, informal_typing, backticks_vs_plain, howto_phrasing,
  tool_alias, irrelevant_context.

Each category has at least six templates, used round-robin and filled from
hand-written word lists; all pairs are unique and stored != query.  Only the
standard library is used and generation is deterministic
(``random.Random(313131)``).

Run from the repository root:

    python3 benchmarks/caches/make_heldout_v31.py

It writes ``benchmarks/caches/data/heldout_generated_v31.json`` with keys
``description``, ``text_pairs`` and ``positives``; each entry is
``{"category", "stored", "query"}``.
"""

import json
import os
import random
import re

SEED = 313131
PER_NEAR_MISS = 20
PER_POSITIVE = 20

rng = random.Random(SEED)
SLOT = re.compile(r"\{(\w+)\}")


def fill(fmt, vals):
    """Replace {name} slots that are in vals; leave other braces alone."""
    return SLOT.sub(lambda m: vals.get(m.group(1), m.group(0)), fmt)


def lcfirst(s):
    return s[:1].lower() + s[1:] if s and s[0].isalpha() else s


def ucfirst(s):
    return s[:1].upper() + s[1:]


class Queue:
    """Draw items without replacement; reshuffle when exhausted."""

    def __init__(self, items):
        self.items = list(items)
        self.left = []

    def draw(self):
        if not self.left:
            self.left = list(self.items)
            rng.shuffle(self.left)
        return self.left.pop()


# ---------------------------------------------------------------------------
# NEAR-MISS TEMPLATES
# A template is a dict: fmt, slot, pairs (a, b) for the contrasted slot,
# shared {slot: [values]} that are identical on both sides.  mode "swap"
# exchanges the two slots a/b instead of replacing one slot.
# ---------------------------------------------------------------------------

CLI_PAIRS = [
    ("git push --force origin main", "git push --force-with-lease origin main"),
    ("rm -r ./build", "rm -rf ./build"),
    ("chmod -R 755 /var/www/html", "chmod 755 /var/www/html"),
    ("git reset --soft HEAD~1", "git reset --hard HEAD~1"),
    ("git clean -n -d", "git clean -f -d"),
    ("docker run -d -p 8080:80 nginx", "docker run -it -p 8080:80 nginx"),
    ("tar -czf backup.tar.gz data/", "tar -xzf backup.tar.gz data/"),
    ("git branch -d feature/login", "git branch -D feature/login"),
    ("grep -r 'TODO' src/", "grep -rl 'TODO' src/"),
    ("grep -i 'timeout' app.log", "grep -v 'timeout' app.log"),
    ("docker compose down", "docker compose down -v"),
    ("ssh -L 8080:localhost:80 deploy@bastion", "ssh -R 8080:localhost:80 deploy@bastion"),
    ("curl -I https://api.example.com/health", "curl -L https://api.example.com/health"),
    ("sed -i 's/debug/info/' config.ini", "sed 's/debug/info/' config.ini"),
    ("pip install -e .", "pip install ."),
    ("npm install -D typescript", "npm install -g typescript"),
    ("git stash pop", "git stash apply"),
    ("python -m pytest -x tests/", "python -m pytest -s tests/"),
    ("kubectl delete pod api-0", "kubectl delete pod api-0 --grace-period=0 --force"),
    ("docker build --no-cache -t api .", "docker build --pull -t api ."),
    ("terraform destroy -target=aws_instance.web", "terraform destroy"),
    ("rsync -av config/ /etc/myapp/", "rsync -av config /etc/myapp/"),
    ("git log -p auth.py", "git log --follow auth.py"),
    ("ls -lt /var/log", "ls -ltr /var/log"),
]

CLI_TEMPLATES = [
    dict(fmt="What exactly does `{c}` do?", slot="c", pairs=CLI_PAIRS),
    dict(fmt="Walk me through what happens when I run `{c}`.", slot="c", pairs=CLI_PAIRS),
    dict(fmt="A teammate pasted this in our team chat:\n```\n{c}\n```\nWhat will it do if I run it?",
         slot="c", pairs=CLI_PAIRS),
    dict(fmt="Found `{c}` in an old runbook. What is it for, and what should I watch out for?",
         slot="c", pairs=CLI_PAIRS),
    dict(fmt="Saw this in my shell history:\n```\n$ {c}\n```\nCan you explain what each part does?",
         slot="c", pairs=CLI_PAIRS),
    dict(fmt="Before I run `{c}`, what exactly is it going to change?", slot="c", pairs=CLI_PAIRS),
    dict(fmt="Our README tells new devs to run `{c}`. What does that do?", slot="c", pairs=CLI_PAIRS),
]

HTTP_TEMPLATES = [
    dict(fmt="My frontend gets a {code} back from `POST /api/v1/{res}`. What does that status mean and what should I check first?",
         slot="code",
         pairs=[("401", "403"), ("400", "422"), ("404", "405"), ("409", "412"), ("429", "503"), ("413", "415")],
         shared={"res": ["orders", "invoices", "users", "uploads"]}),
    dict(fmt="```\n$ curl -i -X {m} https://api.example.com/v2/{res}\n{status}\n```\nWhy am I getting this response?",
         slot="status",
         pairs=[("HTTP/1.1 401 Unauthorized", "HTTP/1.1 403 Forbidden"),
                ("HTTP/1.1 404 Not Found", "HTTP/1.1 405 Method Not Allowed"),
                ("HTTP/1.1 500 Internal Server Error", "HTTP/1.1 502 Bad Gateway"),
                ("HTTP/1.1 413 Payload Too Large", "HTTP/1.1 415 Unsupported Media Type")],
         shared={"m": ["POST", "PUT"], "res": ["reports", "projects/42", "teams"]}),
    dict(fmt="nginx returns `{status}` for every request to `/{loc}/`. Where should I start debugging?",
         slot="status",
         pairs=[("502 Bad Gateway", "504 Gateway Time-out"), ("403 Forbidden", "404 Not Found"),
                ("500 Internal Server Error", "503 Service Temporarily Unavailable"),
                ("413 Request Entity Too Large", "414 Request-URI Too Large")],
         shared={"loc": ["api", "app", "admin", "dashboard"]}),
    dict(fmt="Is `{m}` the right method for an endpoint that changes only the {field} of a user at `/users/:id`?",
         slot="m", pairs=[("PUT", "PATCH"), ("POST", "PATCH")],
         shared={"field": ["`email` field", "`display_name` field", "`avatar_url` field"]}),
    dict(fmt="Is a `{m}` request to `/api/carts/:id/items` idempotent, i.e. can my client safely retry it after a timeout?",
         slot="m", pairs=[("PUT", "POST"), ("DELETE", "POST"), ("GET", "POST"), ("PUT", "PATCH")]),
    dict(fmt="Can I send a JSON body with a `{m}` request using `fetch()` in the browser?",
         slot="m", pairs=[("GET", "POST"), ("HEAD", "PUT"), ("GET", "PATCH")]),
    dict(fmt="Will the browser send a CORS preflight for a cross-origin `{m}` request with `Content-Type: text/plain`?",
         slot="m", pairs=[("POST", "PUT"), ("GET", "DELETE"), ("POST", "PATCH")]),
    dict(fmt="My API returns `{code}` when the JWT has expired. Is that the correct status code?",
         slot="code", pairs=[("401", "403"), ("401", "400"), ("401", "500")]),
]

VERSION_TEMPLATES = [
    dict(fmt="Can I use the `match` statement in Python {v}?", slot="v",
         pairs=[("3.8", "3.10"), ("3.9", "3.12")]),
    dict(fmt="Does Node {v} have a built-in `fetch`, or do I still need `node-fetch`?", slot="v",
         pairs=[("16", "18"), ("14", "20")]),
    dict(fmt="How do I render my root `<App />` component into `#root` in React {v}?", slot="v",
         pairs=[("17", "18"), ("16", "18")]),
    dict(fmt="Can I declare this DTO as a `record` in Java {v}?", slot="v",
         pairs=[("11", "17"), ("8", "21")]),
    dict(fmt="In Go {v}, do I still need `v := v` before starting a goroutine inside a `for` loop?", slot="v",
         pairs=[("1.21", "1.22"), ("1.20", "1.22")]),
    dict(fmt="I'm upgrading to Spring Boot {v}. Should my entity imports use `javax.persistence` or `jakarta.persistence`?",
         slot="v", pairs=[("2.7", "3.2"), ("2.6", "3.1")]),
    dict(fmt="Is the `tomllib` module available in the standard library in Python {v}?", slot="v",
         pairs=[("3.10", "3.11"), ("3.9", "3.12")]),
    dict(fmt="Can I use generics in Go {v}?", slot="v", pairs=[("1.17", "1.18"), ("1.16", "1.21")]),
    dict(fmt="Does TypeScript {v} support the `satisfies` operator?", slot="v",
         pairs=[("4.8", "4.9"), ("4.7", "5.0")]),
    dict(fmt="I'm on Python {v} and this line fails:\n```python\ndef parse(x: int | None) -> str: ...\n```\nWhy, and how do I fix it?",
         slot="v", pairs=[("3.9", "3.10"), ("3.8", "3.11")]),
    dict(fmt="With Kubernetes {v}, can I keep using Docker Engine through dockershim as the node container runtime?",
         slot="v", pairs=[("1.23", "1.24"), ("1.22", "1.26")]),
    dict(fmt="Does Rust {v} support `let ... else` statements?", slot="v", pairs=[("1.64", "1.65"), ("1.60", "1.70")]),
    dict(fmt="Vue {v}: how do I create and mount the app instance in `main.js`?", slot="v", pairs=[("2", "3")]),
]

ERROR_TEMPLATES = [
    dict(fmt="I get this when running `python3 {script}`:\n```\nTraceback (most recent call last):\n  File \"{script}\", line 3, in <module>\n    import {mod}\nModuleNotFoundError: No module named '{mod}'\n```\nWhat do I need to install?",
         slot="mod",
         pairs=[("yaml", "cv2"), ("sklearn", "PIL"), ("dotenv", "bs4"), ("MySQLdb", "psycopg2"), ("jwt", "Crypto")],
         shared={"script": ["etl.py", "main.py", "sync_users.py"]}),
    dict(fmt="My Node service crashes on startup with this:\n```\nError: {e}, open '/app/config/settings.json'\n```\nHow do I fix it?",
         slot="e",
         pairs=[("ENOENT: no such file or directory", "EACCES: permission denied"),
                ("EISDIR: illegal operation on a directory", "ENOENT: no such file or directory"),
                ("EMFILE: too many open files", "EACCES: permission denied")]),
    dict(fmt="My pod `{pod}` is stuck in `{status}`. How do I figure out what's wrong?",
         slot="status",
         pairs=[("CrashLoopBackOff", "ImagePullBackOff"), ("Pending", "ContainerCreating"),
                ("OOMKilled", "CreateContainerConfigError"), ("ErrImagePull", "CrashLoopBackOff")],
         shared={"pod": ["api-7d9f8c6b5-x2kqp", "worker-5c6d7f9b8-lm4tz", "payments-0"]}),
    dict(fmt="```\nException in thread \"main\" java.lang.{exc}\n\tat com.acme.billing.InvoiceService.total(InvoiceService.java:57)\n\tat com.acme.billing.Main.main(Main.java:14)\n```\nWhat's the likely cause at line 57?",
         slot="exc",
         pairs=[("NullPointerException", "ArithmeticException: / by zero"),
                ("ClassCastException: class java.lang.String cannot be cast to class java.lang.Integer",
                 "ArrayIndexOutOfBoundsException: Index 3 out of bounds for length 3"),
                ("NumberFormatException: For input string: \"12,50\"", "NullPointerException")]),
    dict(fmt="My Go service crashed with:\n```\npanic: runtime error: {msg}\n\ngoroutine 1 [running]:\nmain.handle(...)\n\t/app/main.go:31\n```\nWhat kind of bug should I look for?",
         slot="msg",
         pairs=[("index out of range [3] with length 3", "invalid memory address or nil pointer dereference"),
                ("slice bounds out of range [:8] with capacity 4", "integer divide by zero")]),
    dict(fmt="`cargo build` fails on the line where I pass `config` to `start_server`:\n```\n{e}\n```\nWhat does it mean and how do I fix it?",
         slot="e",
         pairs=[("error[E0382]: borrow of moved value: `config`",
                 "error[E0502]: cannot borrow `config` as mutable because it is also borrowed as immutable"),
                ("error[E0308]: mismatched types", "error[E0106]: missing lifetime specifier")]),
    dict(fmt="My Node script throws `{e}` at this line:\n```js\nconst total = order.items.reduce((s, i) => s + i.price, 0);\n```\nWhat's wrong?",
         slot="e",
         pairs=[("TypeError: Cannot read properties of undefined (reading 'reduce')",
                 "TypeError: order.items.reduce is not a function"),
                ("ReferenceError: order is not defined",
                 "TypeError: Cannot read properties of undefined (reading 'items')")]),
    dict(fmt="```\npsql: error: connection to server at \"db.internal\" (10.0.3.7), port 5432 failed: {msg}\n```\nHow do I get past this?",
         slot="msg",
         pairs=[("Connection refused", "FATAL:  password authentication failed for user \"app\""),
                ("timeout expired",
                 "FATAL:  no pg_hba.conf entry for host \"10.0.1.12\", user \"app\", database \"app\", no encryption"),
                ("FATAL:  database \"app\" does not exist", "FATAL:  role \"app\" does not exist")]),
    dict(fmt="`docker push registry.acme.io/api:{tag}` fails with `{msg}`. What should I do?",
         slot="msg",
         pairs=[("unauthorized: authentication required", "http: server gave HTTP response to HTTPS client"),
                ("denied: requested access to the resource is denied",
                 "dial tcp: lookup registry.acme.io: no such host")],
         shared={"tag": ["1.4.2", "2.0.0-rc1"]}),
    dict(fmt="This line:\n```python\nname = rows[0][\"name\"]\n```\nraises `{exc}`. What's going on?",
         slot="exc",
         pairs=[("KeyError: 'name'", "IndexError: list index out of range"),
                ("TypeError: tuple indices must be integers or slices, not str", "KeyError: 'name'"),
                ("TypeError: 'NoneType' object is not subscriptable", "IndexError: list index out of range")]),
]

CONFIG_TEMPLATES = [
    dict(fmt="My Deployment has this:\n```yaml\nspec:\n  replicas: {n}\n  strategy:\n    rollingUpdate:\n      maxSurge: 1\n      maxUnavailable: 0\n```\nHow many pods can exist at the same time during a rollout?",
         slot="n", pairs=[("3", "5"), ("2", "4"), ("4", "6")]),
    dict(fmt="My app listens on port 8000 inside the container. With this compose file, which URL do I open on my laptop?\n```yaml\nservices:\n  api:\n    build: .\n    ports:\n      - \"{p}\"\n```",
         slot="p", pairs=[("8080:8000", "8000:8080"), ("5000:8000", "8000:5000")]),
    dict(fmt="Will this workflow run when someone opens a pull request against main?\n```yaml\non:\n  {trig}\n```",
         slot="trig",
         pairs=[("push:\n    branches: [main]", "pull_request:\n    branches: [main]"),
                ("pull_request:\n    branches: [main]", "pull_request:\n    branches: [develop]")]),
    dict(fmt="Will `let name: string = null;` compile with this tsconfig?\n```json\n{\n  \"compilerOptions\": {\n    \"target\": \"{target}\",\n    \"strict\": {b}\n  }\n}\n```",
         slot="b", pairs=[("true", "false")], shared={"target": ["ES2020", "ES2022"]}),
    dict(fmt="With this nginx config, what path does the backend receive for a request to `/{loc}/users?page=2`?\n```nginx\nlocation /{loc}/ {\n    proxy_pass {up};\n}\n```",
         slot="up", pairs=[("http://backend:3000/", "http://backend:3000")],
         shared={"loc": ["api", "v1", "service"]}),
    dict(fmt="Does this give the container roughly half a gigabyte of memory?\n```yaml\nresources:\n  limits:\n    memory: \"{m}\"\n```",
         slot="m", pairs=[("512Mi", "512m"), ("500M", "500m")]),
    dict(fmt="If express 4.19.0 gets published, will a fresh `npm install` (no lockfile) pick it up with this?\n```json\n\"dependencies\": {\n  \"express\": \"{r}\"\n}\n```",
         slot="r", pairs=[("^4.18.2", "~4.18.2"), ("^4.18.2", "4.18.2")]),
    dict(fmt="Can I `pip install` this package on Python 3.9?\n```toml\n[project]\nname = \"{name}\"\nrequires-python = \"{r}\"\n```",
         slot="r", pairs=[(">=3.8", ">=3.10"), (">=3.7,<3.10", ">=3.10")],
         shared={"name": ["acme-tools", "ledger-sync"]}),
    dict(fmt="If the process in this container exits with code 0, will Docker start it again?\n```yaml\nservices:\n  worker:\n    image: acme/worker:2.3\n    restart: {x}\n```",
         slot="x", pairs=[("always", "on-failure"), ("unless-stopped", "\"no\"")]),
    dict(fmt="With this in `settings.py`, will `python manage.py runserver` serve my static files automatically?\n```python\nDEBUG = {b}\nSTATIC_URL = \"static/\"\n```",
         slot="b", pairs=[("True", "False")]),
    dict(fmt="I re-pushed `acme/api:stable` and deleted the pod. Will the new pod run the new image?\n```yaml\ncontainers:\n  - name: api\n    image: acme/api:stable\n    imagePullPolicy: {x}\n```",
         slot="x", pairs=[("Always", "IfNotPresent"), ("Always", "Never")]),
    dict(fmt="How often will this workflow run?\n```yaml\non:\n  schedule:\n    - cron: '{c}'\n```",
         slot="c", pairs=[("0 * * * *", "*/5 * * * *"), ("0 9 * * 1", "0 9 * * 1-5"), ("30 2 * * *", "30 2 1 * *")]),
    dict(fmt="With this Spring Boot config, will my `log.debug(...)` calls in `com.acme.orders` show up?\n```yaml\nlogging:\n  level:\n    com.acme.orders: {lvl}\n```",
         slot="lvl", pairs=[("DEBUG", "INFO"), ("TRACE", "WARN")]),
    dict(fmt="Will the `apt-get install` step work in this image?\n```dockerfile\nFROM {img}\nRUN apt-get update && apt-get install -y curl\n```",
         slot="img", pairs=[("python:3.12-slim", "python:3.12-alpine"), ("node:20-bookworm", "node:20-alpine")]),
]

PATH_TEMPLATES = [
    dict(fmt="Which service normally listens on port {p}?", slot="p",
         pairs=[("5432", "3306"), ("6379", "11211"), ("27017", "9200"), ("5672", "15672")]),
    dict(fmt="Can a non-root process bind to port {p} on a default Linux setup?", slot="p",
         pairs=[("80", "8080"), ("443", "8443"), ("1023", "1024")]),
    dict(fmt="What is the `{var}` environment variable used for?", slot="var",
         pairs=[("PYTHONPATH", "PYTHONHOME"), ("NODE_ENV", "NODE_OPTIONS"), ("GOPATH", "GOROOT"),
                ("JAVA_HOME", "JAVA_TOOL_OPTIONS"), ("AWS_PROFILE", "AWS_DEFAULT_REGION"),
                ("DOCKER_HOST", "DOCKER_CONFIG")]),
    dict(fmt="What is `{path}` for on a Linux server, and is it safe to edit by hand?", slot="path",
         pairs=[("/etc/hosts", "/etc/hostname"), ("/etc/passwd", "/etc/shadow"),
                ("~/.ssh/authorized_keys", "~/.ssh/known_hosts"), ("/etc/sudoers", "/etc/group")]),
    dict(fmt="In my docker-compose setup the `web` container uses `DATABASE_URL=postgres://app:secret@{hp}/app`. Will it reach the `db` service?",
         slot="hp", pairs=[("db:5432", "localhost:5432"), ("db:5432", "db:5433"), ("db:5432", "127.0.0.1:5432")]),
    dict(fmt="My Flask app calls `app.run({args})` inside a Docker container started with `-p 5000:5000`. Can I reach it from my browser at localhost:5000?",
         slot="args",
         pairs=[("host=\"0.0.0.0\", port=5000", "host=\"127.0.0.1\", port=5000"),
                ("host=\"0.0.0.0\", port=5000", "host=\"0.0.0.0\", port=8000")]),
    dict(fmt="Will this line in my root `.gitignore` ignore `src/build/output.js`?\n```\n{pat}\n```", slot="pat",
         pairs=[("build/", "/build/"), ("*.js", "/*.js")]),
    dict(fmt="I set `{var}=1` in my Dockerfile. What does it change about how Python runs?", slot="var",
         pairs=[("PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"), ("PYTHONUNBUFFERED", "PYTHONFAULTHANDLER")]),
    dict(fmt="Which process writes to `{path}` on Ubuntu, and what kind of entries will I find there?", slot="path",
         pairs=[("/var/log/auth.log", "/var/log/syslog"), ("/var/log/nginx/access.log", "/var/log/nginx/error.log"),
                ("/var/log/kern.log", "/var/log/dpkg.log")]),
    dict(fmt="My nginx server block has `{l}`. Will requests from other machines on the network reach it?", slot="l",
         pairs=[("listen 127.0.0.1:80;", "listen 80;"), ("listen 127.0.0.1:8080;", "listen 0.0.0.0:8080;")]),
]

OPERATOR_TEMPLATES = [
    dict(fmt="What does `echo \"$(date) deploy finished\" {op} deploy.log` do to the file?", slot="op",
         pairs=[(">", ">>"), (">>", "| tee")]),
    dict(fmt="In JavaScript, what does `{expr}` evaluate to?", slot="expr",
         pairs=[("0 == ''", "0 === ''"), ("null == undefined", "null === undefined"),
                ("'5' + 3", "'5' - 3"), ("[] == false", "[] === false")]),
    dict(fmt="In our CI script we have `{c}`. When does the deploy step actually run?", slot="c",
         pairs=[("make test && make deploy", "make test || make deploy"),
                ("make test; make deploy", "make test && make deploy")]),
    dict(fmt="How many times does the body of this loop run?\n```python\ni = 0\nwhile i {op} {lim}:\n    i += 1\n```",
         slot="op", pairs=[("<", "<=")], shared={"lim": ["10", "5", "100"]}),
    dict(fmt="Our `users` table has people aged 17, 18 and 19. How many rows does `SELECT * FROM users WHERE age {op} 18;` return?",
         slot="op", pairs=[(">", ">="), ("<>", "="), ("<", "<=")]),
    dict(fmt="Why does this print `False` when `a` and `b` both hold `[1, 2, 3]`?\n```python\nprint({expr})\n```",
         slot="expr", pairs=[("a is b", "a == b")]),
    dict(fmt="Does this capture both stdout and stderr in `out.log`?\n```bash\n{c}\n```", slot="c",
         pairs=[("./build.sh > out.log 2>&1", "./build.sh 2>&1 > out.log"),
                ("./build.sh &> out.log", "./build.sh > out.log")]),
    dict(fmt="What does `{expr}` return in Python 3?", slot="expr",
         pairs=[("7 // 2", "7 / 2"), ("-7 // 2", "-7 % 2"), ("2 ** 3", "2 ^ 3")]),
    dict(fmt="What does `const timeout = config.timeout {op} 3000;` set `timeout` to when `config.timeout` is `0`?",
         slot="op", pairs=[("??", "||")]),
    dict(fmt="What does the regex `{re}` match in the string `<b>bold</b> and <i>italic</i>`?", slot="re",
         pairs=[("<.+>", "<.+?>"), ("<[^>]*>", "<.*>")]),
    dict(fmt="For `s = \"deploy-2024\"`, what does `{expr}` give me in Python?", slot="expr",
         pairs=[("s[:6]", "s[6:]"), ("s[-4:]", "s[:-4]")]),
    dict(fmt="In bash, is `[ \"$count\" {op} 10 ]` comparing numbers or doing something else?", slot="op",
         pairs=[("-gt", ">"), ("-eq", "==")]),
]

SWAP_TEMPLATES = [
    dict(fmt="What's the safest way to migrate our schema and data from {a} to {b}?", mode="swap",
         pairs=[("MySQL 8", "PostgreSQL 16"), ("MongoDB", "PostgreSQL"), ("SQLite", "MySQL")]),
    dict(fmt="How do I merge `{a}` into `{b}` and resolve the conflicts?", mode="swap",
         pairs=[("main", "feature/payments"), ("develop", "release/2.3")]),
    dict(fmt="How do I copy `{f}` from {a} to {b} with `docker cp`?", mode="swap",
         pairs=[("the `api` container", "my host machine")],
         shared={"f": ["/app/logs/app.log", "config.yaml", "/srv/data/export.csv"]}),
    dict(fmt="What's the `scp` command to copy `{f}` from {a} to {b}?", mode="swap",
         pairs=[("my laptop", "the server `deploy@10.0.0.12`")],
         shared={"f": ["backup.sql", "nginx.conf", "release.tar.gz"]}),
    dict(fmt="How do I convert {a} to {b} in Python?", mode="swap",
         pairs=[("a `str`", "a `bytes` object"), ("a `datetime`", "a Unix timestamp"),
                ("a dict", "a JSON string"), ("a pandas DataFrame", "a list of dicts")]),
    dict(fmt="How do I sync everything from {a} to {b} with the AWS CLI?", mode="swap",
         pairs=[("the `s3://acme-backups/reports` prefix", "my local `./reports` folder"),
                ("the `s3://acme-assets/img` prefix", "the `s3://acme-cdn/img` prefix")]),
    dict(fmt="How do I rebase `{a}` onto `{b}`?", mode="swap",
         pairs=[("feature/search", "main"), ("hotfix/login", "develop")]),
    dict(fmt="What's a one-liner to convert a {a} file to {b} on the command line?", mode="swap",
         pairs=[("YAML", "JSON"), ("CSV", "JSON")]),
    dict(fmt="How do I copy the rows from {a} into {b}?", mode="swap",
         pairs=[("the `orders` table in Postgres", "a CSV file called `orders.csv`")]),
    dict(fmt="How do I set up an nginx redirect from `{a}` to `{b}`?", mode="swap",
         pairs=[("www.example.com", "example.com"), ("http://", "https://")]),
    dict(fmt="How do I move Terraform state from `{a}` to `{b}` without destroying anything?", mode="swap",
         pairs=[("module.old_vpc", "module.network")]),
]

PY_SNIPPETS = [
    "def dedupe(items):\n    seen = []\n    for x in items:\n        if x not in seen:\n            seen.append(x)\n    return seen",
    "def load_users(path):\n    with open(path) as f:\n        return [line.split(\",\") for line in f]",
    "def avg(nums):\n    return sum(nums) / len(nums)",
]
SQL_SNIPPETS = [
    "SELECT c.name, COUNT(o.id)\nFROM customers c\nLEFT JOIN orders o ON o.customer_id = c.id\nWHERE o.created_at > '2024-01-01'\nGROUP BY c.name;",
    "SELECT *\nFROM events\nWHERE DATE(created_at) = CURRENT_DATE\nORDER BY created_at DESC;",
]
SH_SNIPPETS = [
    "for f in $(ls /var/log/app/*.log); do gzip $f; done",
    "cat access.log | grep 500 | awk '{print $7}' | sort | uniq -c | sort -rn | head",
]
GO_SNIPPETS = [
    "func getUser(w http.ResponseWriter, r *http.Request) {\n    id := r.URL.Query().Get(\"id\")\n    u, _ := db.FindUser(id)\n    json.NewEncoder(w).Encode(u)\n}",
    "func worker(jobs <-chan int, results chan<- int) {\n    for j := range jobs {\n        results <- j * 2\n    }\n}",
]
JS_SNIPPETS = [
    "async function loadAll(ids) {\n  const out = [];\n  for (const id of ids) {\n    out.push(await fetch(`/api/items/${id}`).then(r => r.json()));\n  }\n  return out;\n}",
    "function debounce(fn, ms) {\n  let t;\n  return (...args) => {\n    clearTimeout(t);\n    t = setTimeout(() => fn(...args), ms);\n  };\n}",
]
DOCKERFILE_SNIPPETS = [
    "FROM node:20\nWORKDIR /app\nCOPY . .\nRUN npm install\nCMD [\"node\", \"server.js\"]",
    "FROM python:3.12\nCOPY . /app\nRUN pip install -r /app/requirements.txt\nCMD python /app/main.py",
]
RUST_SNIPPETS = [
    "fn longest(words: &Vec<String>) -> String {\n    let mut best = String::new();\n    for w in words {\n        if w.len() > best.len() {\n            best = w.clone();\n        }\n    }\n    best\n}",
]


def action_pairs(acts):
    return [(acts[i], acts[j]) for i in range(len(acts)) for j in range(i + 1, len(acts))]


ACTION_TEMPLATES = [
    dict(fmt="```python\n{code}\n```\nCan you {act}?", slot="act", shared={"code": PY_SNIPPETS},
         pairs=action_pairs(["explain what this does", "find the bug in this", "write pytest tests for this",
                             "make this faster", "add type hints to this"])),
    dict(fmt="Can you {act}?\n```sql\n{code}\n```", slot="act", shared={"code": SQL_SNIPPETS},
         pairs=action_pairs(["explain this SQL query", "optimize this SQL query", "find the bug in this SQL query",
                             "rewrite this SQL query using a CTE"])),
    dict(fmt="Here's a bash one-liner from our deploy script:\n```bash\n{code}\n```\nCould you {act}?", slot="act",
         shared={"code": SH_SNIPPETS},
         pairs=action_pairs(["explain it", "port it to PowerShell", "rewrite it in Python",
                             "make it safe for filenames with spaces"])),
    dict(fmt="I wrote this Go code:\n```go\n{code}\n```\nPlease {act}.", slot="act", shared={"code": GO_SNIPPETS},
         pairs=action_pairs(["review it for bugs", "add proper error handling", "write a table-driven test for it",
                             "explain how it works"])),
    dict(fmt="{act}:\n```js\n{code}\n```", slot="act", shared={"code": JS_SNIPPETS},
         pairs=action_pairs(["Explain this JavaScript", "Convert this JavaScript to TypeScript",
                             "Write Jest tests for this JavaScript", "Make this JavaScript run faster"])),
    dict(fmt="Can you {act}?\n```dockerfile\n{code}\n```", slot="act",
         shared={"code": DOCKERFILE_SNIPPETS},
         pairs=action_pairs(["explain this Dockerfile line by line", "make the final image of this Dockerfile smaller",
                             "convert this Dockerfile to a multi-stage build",
                             "harden this Dockerfile so it runs as a non-root user"])),
    dict(fmt="```rust\n{code}\n```\n{act}", slot="act", shared={"code": RUST_SNIPPETS},
         pairs=action_pairs(["What does this function do?", "How can I make this more idiomatic?",
                             "Can you write unit tests for it?", "Why does clippy warn about `&Vec<String>` here?"])),
]

SCOPE_TEMPLATES = [
    dict(fmt="How do I set an environment variable {s}?", slot="s",
         pairs=[("permanently on Windows", "permanently on Linux"),
                ("for a single command in bash", "for a single command in PowerShell")]),
    dict(fmt="How do I set my git `user.email` {s}?", slot="s",
         pairs=[("for this repository only", "for every repository on my machine")]),
    dict(fmt="How do I kill the process that's listening on port {p} on {os}?", slot="os",
         pairs=[("Windows", "Linux"), ("macOS", "Windows")], shared={"p": ["3000", "8080", "5173"]}),
    dict(fmt="Is it OK to have `{setting}` turned on {env}?", slot="env",
         pairs=[("in production", "in my local development environment"), ("in production", "in CI test runs")],
         shared={"setting": ["DEBUG = True", "display_errors = On", "spring.jpa.show-sql=true"]}),
    dict(fmt="How do I clear the DNS cache on {os}?", slot="os",
         pairs=[("Windows 11", "macOS Sonoma"), ("Ubuntu 22.04", "Windows 11")]),
    dict(fmt="How do I list the pods {s} with kubectl?", slot="s",
         pairs=[("across all namespaces", "in the `kube-system` namespace only")]),
    dict(fmt="How do I open port {p} in the firewall on {os}?", slot="os",
         pairs=[("Ubuntu", "RHEL 9"), ("Ubuntu", "Windows Server 2022")], shared={"p": ["8443", "9090"]}),
    dict(fmt="How do I cache pip dependencies {where} so installs are faster?", slot="where",
         pairs=[("in a GitHub Actions workflow", "in a Docker build"), ("in GitLab CI", "in a GitHub Actions workflow")]),
    dict(fmt="How do I install the `{tool}` CLI {s} on Linux?", slot="s",
         pairs=[("for my user only", "system-wide for all users")], shared={"tool": ["httpie", "pre-commit", "black"]}),
    dict(fmt="How do I restart the Docker daemon on {os}?", slot="os",
         pairs=[("Linux with systemd", "macOS"), ("Windows", "Linux with systemd")]),
    dict(fmt="How should I pass the database password to the app {where}?", slot="where",
         pairs=[("when running it locally", "when deploying it to Kubernetes"),
                ("when running it locally", "in a GitHub Actions job")]),
]

NEAR_MISS = [
    ("cli_flag_change", CLI_TEMPLATES),
    ("http_status_or_method_change", HTTP_TEMPLATES),
    ("version_change", VERSION_TEMPLATES),
    ("error_token_change", ERROR_TEMPLATES),
    ("config_value_change", CONFIG_TEMPLATES),
    ("path_port_env_change", PATH_TEMPLATES),
    ("operator_change", OPERATOR_TEMPLATES),
    ("source_target_swap", SWAP_TEMPLATES),
    ("requested_action_change", ACTION_TEMPLATES),
    ("scope_environment_change", SCOPE_TEMPLATES),
]


# ---------------------------------------------------------------------------
# POSITIVE TEMPLATES
# A template is (make, pool): make(item) -> (a, b); pool is a list of dicts.
# ---------------------------------------------------------------------------

def fmt_pair(fa, fb):
    return lambda item: (fill(fa, item), fill(fb, item))


REWORD_POOL = [
    dict(err="ModuleNotFoundError: No module named 'requests'", cmd="python3 fetch.py"),
    dict(err="Error: Cannot find module 'express'", cmd="node server.js"),
    dict(err="fatal: refusing to merge unrelated histories", cmd="git pull origin main"),
    dict(err="permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock", cmd="docker ps"),
    dict(err="bash: ./deploy.sh: Permission denied", cmd="./deploy.sh"),
    dict(err="error: externally-managed-environment", cmd="pip install flask"),
    dict(err="Error: listen EADDRINUSE: address already in use :::3000", cmd="npm start"),
    dict(err="The connection to the server localhost:8080 was refused - did you specify the right host or port?", cmd="kubectl get pods"),
    dict(err="go: go.mod file not found in current directory or any parent directory", cmd="go build ./..."),
    dict(err="error[E0432]: unresolved import `serde`", cmd="cargo build"),
    dict(err="error: remote origin already exists.", cmd="git remote add origin git@github.com:acme/api.git"),
    dict(err="Error: Error acquiring the state lock", cmd="terraform apply"),
    dict(err="npm ERR! code ERESOLVE", cmd="npm install"),
    dict(err="java.lang.UnsupportedClassVersionError: com/acme/App has been compiled by a more recent version of the Java Runtime", cmd="java -jar app.jar"),
    dict(err="ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed", cmd="python3 download.py"),
    dict(err="fatal: not a git repository (or any of the parent directories): .git", cmd="git status"),
    dict(err="Error response from daemon: Conflict. The container name \"/web\" is already in use", cmd="docker run --name web nginx"),
    dict(err="nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)", cmd="sudo nginx"),
    dict(err="error TS2307: Cannot find module './utils' or its corresponding type declarations.", cmd="npx tsc"),
    dict(err="Error [ERR_REQUIRE_ESM]: require() of ES Module not supported", cmd="node build.js"),
    dict(err="psql: error: FATAL:  role \"postgres\" does not exist", cmd="psql -U postgres"),
]
REWORD_TEMPLATES = [
    (fmt_pair("I get `{err}` when I run `{cmd}`. How do I fix it?",
              "Running `{cmd}` fails with `{err}`. What's the fix?"), REWORD_POOL),
    (fmt_pair("What causes `{err}`? It happens when I run `{cmd}`.",
              "Why would `{cmd}` throw `{err}`?"), REWORD_POOL),
    (fmt_pair("`{cmd}` gives me this:\n```\n{err}\n```\nWhat does it mean?",
              "`{cmd}` gives me this:\n```\n{err}\n```\nCan you explain this error?"), REWORD_POOL),
    (fmt_pair("How can I get rid of this error from `{cmd}`?\n```\n{err}\n```",
              "How do I resolve this error when running `{cmd}`?\n```\n{err}\n```"), REWORD_POOL),
    (fmt_pair("What am I doing wrong? `{cmd}` prints `{err}`.",
              "`{cmd}` prints `{err}` -- what's my mistake?"), REWORD_POOL),
    (fmt_pair("Help me fix `{err}` from `{cmd}`.",
              "Any idea how to solve `{err}` when running `{cmd}`?"), REWORD_POOL),
]

ORDER_CODE = [
    dict(lang="python", code="def add(item, bucket=[]):\n    bucket.append(item)\n    return bucket",
         q="Why does this function keep the items from previous calls?"),
    dict(lang="js", code="for (var i = 0; i < 3; i++) {\n  setTimeout(() => console.log(i), 100);\n}",
         q="Why does this print 3 three times instead of 0, 1, 2?"),
    dict(lang="go", code="for _, f := range files {\n    fh, _ := os.Open(f)\n    defer fh.Close()\n}",
         q="Is it a problem to use defer inside this loop?"),
    dict(lang="rust", code="let s = String::from(\"hi\");\nlet t = s;\nprintln!(\"{}\", s);",
         q="Why won't this compile?"),
    dict(lang="java", code="String a = \"hi\";\nString b = new String(\"hi\");\nSystem.out.println(a == b);",
         q="Why does this print false?"),
    dict(lang="sql", code="SELECT department, COUNT(*)\nFROM employees\nWHERE COUNT(*) > 5\nGROUP BY department;",
         q="Why does Postgres reject this query?"),
    dict(lang="bash", code="for f in $(ls *.txt); do\n  wc -l $f\ndone",
         q="Why does this break on filenames with spaces?"),
    dict(lang="ts", code="const el = document.getElementById(\"app\");\nel.innerHTML = \"hi\";",
         q="Why does TypeScript say the object is possibly null here?"),
]
ORDER_LOG = [
    dict(q="What does this nginx error mean?",
         log="2024/05/02 10:14:07 [error] 1234#0: *88 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.0.0.5, server: api.example.com"),
    dict(q="Why was my container killed?",
         log="Last State:     Terminated\n  Reason:       OOMKilled\n  Exit Code:    137"),
    dict(q="What is this Postgres log telling me?",
         log="ERROR:  deadlock detected\nDETAIL:  Process 4121 waits for ShareLock on transaction 9921; blocked by process 4188."),
    dict(q="Why won't my Spring Boot app start?",
         log="APPLICATION FAILED TO START\n\nDescription:\nWeb server failed to start. Port 8080 was already in use."),
    dict(q="Why is this GitHub Actions step failing?",
         log="/home/runner/work/_temp/3f1c.sh: line 1: yarn: command not found\nError: Process completed with exit code 127."),
]
ORDER_CFG = [
    dict(q="Why can't my Service reach the pods?", lang="yaml",
         cfg="apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web-frontend\n  ports:\n    - port: 80\n      targetPort: 8080"),
    dict(q="Is anything wrong with this compose file?", lang="yaml",
         cfg="services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: secret\n  web:\n    build: .\n    depends_on:\n      - db"),
    dict(q="Why is Prettier ignoring my config?", lang="json",
         cfg="{\n  \"singleQuote\": true,\n  \"semi\": false,\n}"),
    dict(q="Why isn't my `[tool.black]` line length being applied?", lang="toml",
         cfg="[tool.black]\nline_length = 100\ntarget-version = [\"py311\"]"),
]
ORDER_CMD = [
    dict(q="What does this command do?", cmd="find . -name '*.log' -mtime +7 -delete"),
    dict(q="Is this safe to run on a shared branch?", cmd="git push --force origin feature/api"),
    dict(q="What will this remove?", cmd="docker system prune -a --volumes"),
    dict(q="What does each flag mean here?", cmd="tar -xzvf release.tar.gz -C /opt/app"),
    dict(q="How do I make this also show hidden files?", cmd="ls -lh"),
    dict(q="Can you break this command down for me?", cmd="kubectl get pods -n prod -o jsonpath='{.items[*].metadata.name}'"),
]
ORDER_ERR = [
    dict(q="How do I fix this error from git push?",
         err="remote: Support for password authentication was removed on August 13, 2021.\nfatal: Authentication failed for 'https://github.com/acme/api.git/'"),
    dict(q="What does this mean and how do I get rid of it?",
         err="WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager."),
    dict(q="Why does my Vite build fail with this?",
         err="[vite]: Rollup failed to resolve import \"lodash-es\" from \"src/utils/format.ts\"."),
    dict(q="How do I fix this in my Django app?",
         err="django.db.utils.OperationalError: no such table: accounts_profile"),
    dict(q="What's causing this Terraform error?",
         err="Error: Reference to undeclared input variable\n\n  on main.tf line 12:\n  12:   instance_type = var.instance_size"),
]
ORDER_TEMPLATES = [
    (fmt_pair("{q}\n```{lang}\n{code}\n```", "```{lang}\n{code}\n```\n{q}"), ORDER_CODE),
    (fmt_pair("{q} Here's the log:\n```\n{log}\n```", "Here's the log:\n```\n{log}\n```\n{q}"), ORDER_LOG),
    (fmt_pair("{q} This is the config:\n```{lang}\n{cfg}\n```", "This is the config:\n```{lang}\n{cfg}\n```\n{q}"), ORDER_CFG),
    (fmt_pair("{q}\n`{cmd}`", "`{cmd}`\n{q}"), ORDER_CMD),
    (fmt_pair("{q}\n\n{err}", "{err}\n\n{q}"), ORDER_ERR),
    (fmt_pair("{q} Snippet below.\n```{lang}\n{code}\n```", "```{lang}\n{code}\n```\n{q}"), ORDER_CODE),
]

GREET_POOL = [dict(q=q) for q in [
    "How do I list all running Docker containers?",
    "What does `git rebase -i HEAD~3` do?",
    "How can I check which process is listening on port 8080 on Linux?",
    "How do I rename a local git branch?",
    "What's the difference between `let` and `const` in JavaScript?",
    "How do I read a JSON file into a dict in Python?",
    "How do I see the logs of a crashed Kubernetes pod?",
    "How do I undo `git add` for a single file?",
    "What does HTTP 429 mean?",
    "How do I create a Python virtual environment with `venv`?",
    "How do I find the size of each table in a PostgreSQL database?",
    "Why does `npm ci` fail when there's no package-lock.json?",
    "How do I pass build arguments to `docker build`?",
    "How can I make a bash script exit on the first error?",
    "How do I add a column with a default value in MySQL?",
    "How do I format all Go files in a project from the command line?",
    "What does `set -euo pipefail` do in a bash script?",
    "How do I print the current git commit hash?",
    "How do I reverse a string in Rust?",
    "How do I cancel a running GitHub Actions workflow from the `gh` CLI?",
    "How do I generate an ed25519 SSH key pair?",
    "What is the difference between `COPY` and `ADD` in a Dockerfile?",
]]
for _it in GREET_POOL:
    _it["ql"] = lcfirst(_it["q"])
GREET_TEMPLATES = [
    (fmt_pair("Hi! {q}", "{q}"), GREET_POOL),
    (fmt_pair("Quick question: {q}", "{q}"), GREET_POOL),
    (fmt_pair("Sorry if this is a dumb question, but {ql}", "{q}"), GREET_POOL),
    (fmt_pair("{q} Thanks in advance!", "{q}"), GREET_POOL),
    (fmt_pair("Hey there, hope you're doing well. {q}", "{q}"), GREET_POOL),
    (fmt_pair("{q}", "Hello! {q} Thank you so much."), GREET_POOL),
    (fmt_pair("Good morning! {q} Cheers.", "{q}"), GREET_POOL),
]

INFORMAL_POOL = [dict(q=q) for q in [
    "Can you explain what `git cherry-pick -x` does?",
    "Could you please show me how to pull the `id` field out of every object in an array with `jq`?",
    "What's the difference between `docker stop` and `docker kill`?",
    "I'm getting `zsh: command not found: python` on my Mac. How do I fix it?",
    "How do I make `kubectl` use a different kubeconfig file?",
    "Can you tell me what `chmod 644` means?",
    "Please explain what `trap cleanup EXIT` does in a bash script.",
    "What's the right way to check if a file exists before calling `open()` in Python?",
    "Why does my `useEffect` run twice in development mode?",
    "Could you show me how to write a `Dockerfile` for a FastAPI app?",
    "I don't understand what `.await` does in Rust. Can you explain it?",
    "What does `git reflog` show and how do I use it to recover a deleted branch?",
    "How do you use `git filter-repo` to remove a file containing a password from the history?",
    "Can you tell me why `SELECT COUNT(*)` is slow on my big Postgres table?",
    "What's the difference between `npm install` and `npm ci`?",
    "Why does `go vet` complain that I'm copying a `sync.Mutex`?",
    "Can you help me understand what `terraform state rm` does?",
    "How do I make my GitHub Actions job run only when files in `docs/` change?",
    "I'm running `npm run build` but it says `sh: vite: not found`. What should I do?",
    "Could you please explain the difference between `git merge --squash` and a normal merge?",
    "What's the best way to see why my pod restarted? `kubectl describe` doesn't show much.",
    "Why doesn't `source .env` export the variables to my Python script?",
]]

_CODE_SPLIT = re.compile(r"(```.*?```|`[^`]*`)", re.S)
_APOS = [("what's", "whats"), ("don't", "dont"), ("doesn't", "doesnt"), ("i'm", "im"), ("it's", "its"),
         ("can't", "cant"), ("isn't", "isnt"), ("there's", "theres"), ("won't", "wont")]


def _on_text(text, fn):
    parts = _CODE_SPLIT.split(text)
    return "".join(p if i % 2 else fn(p) for i, p in enumerate(parts))


def _lower(s):
    return s.lower()


def _u(s):
    s = re.sub(r"\byou\b", "u", s)
    s = re.sub(r"\byour\b", "ur", s)
    s = re.sub(r"\bplease\b", "pls", s)
    return s


def _noapos(s):
    for a, b in _APOS:
        s = re.sub(r"\b" + re.escape(a) + r"\b", b, s)
    return s


def _strip_q(s):
    return s.replace("?", "").replace(", ", " ")


def _double_q(s):
    return s.replace("?", "??")


def _strip_final_period(s):
    return re.sub(r"\.(\s|$)", r"\1", s)


def informal_style(style):
    def make(item):
        q = item["q"]
        if style == 0:   # lowercase, no question marks or periods
            out = _on_text(q, lambda s: _strip_final_period(_strip_q(_lower(s))))
        elif style == 1:  # u / ur / pls
            out = _on_text(q, lambda s: _strip_q(_u(_lower(s))))
        elif style == 2:  # no apostrophes
            out = _on_text(q, lambda s: _strip_q(_noapos(_lower(s))))
        elif style == 3:  # double question marks
            out = _on_text(q, lambda s: _double_q(_noapos(_lower(s))))
            if "??" not in out:
                out = out.rstrip(". ") + "??"
        elif style == 4:  # pls appended
            out = _on_text(q, lambda s: _strip_final_period(_strip_q(_u(_lower(s)))))
            out = out.rstrip(" ") + ("" if " pls" in out else " pls")
        else:            # everything + thx
            out = _on_text(q, lambda s: _strip_final_period(_strip_q(_u(_noapos(_lower(s))))))
            out = out.rstrip(" ") + " thx"
        out = re.sub(r"[ \t]{2,}", " ", out).strip()
        return q, out
    return make


INFORMAL_TEMPLATES = [(informal_style(k), INFORMAL_POOL) for k in range(6)]

BACKTICK_POOL = [
    dict(c="git log --oneline --graph", p="see the branch history"),
    dict(c="docker exec -it web sh", p="open a shell in a running container"),
    dict(c="kubectl rollout undo deployment/api", p="roll back a deployment"),
    dict(c="pip freeze > requirements.txt", p="save my Python dependencies"),
    dict(c="du -sh *", p="see how big each folder is"),
    dict(c="npm ls --depth=0", p="list the top-level packages I have installed"),
    dict(c="git rebase -i HEAD~3", p="squash my last three commits"),
    dict(c="find . -type f -name '*.pyc' -delete", p="clean up compiled Python files"),
    dict(c="docker logs -f --tail 100 api", p="follow a container's logs"),
    dict(c="ss -tulpn", p="see which ports are open"),
    dict(c="terraform plan -out=tfplan", p="preview infrastructure changes"),
    dict(c="go mod tidy", p="clean up my go.mod"),
    dict(c="cargo build --release", p="build an optimized binary"),
    dict(c="chmod +x deploy.sh", p="make a script executable"),
    dict(c="git stash push -m wip", p="save unfinished work"),
    dict(c="kubectl get pods -o wide", p="see which node each pod runs on"),
    dict(c="psql -h localhost -U app -d appdb", p="connect to my local database"),
    dict(c="openssl x509 -in cert.pem -noout -dates", p="check when a certificate expires"),
    dict(c="curl -s -o /dev/null -w '%{http_code}' https://example.com", p="get just the HTTP status code of a URL"),
    dict(c="tail -n 50 /var/log/nginx/error.log", p="check recent nginx errors"),
    dict(c="git diff --staged", p="review what I'm about to commit"),
]
BACKTICK_TEMPLATES = [
    (fmt_pair("What does `{c}` do?", "What does {c} do?"), BACKTICK_POOL),
    (fmt_pair("Is `{c}` the right way to {p}?", "Is {c} the right way to {p}?"), BACKTICK_POOL),
    (fmt_pair("Can you explain this command?\n```\n{c}\n```", "Can you explain this command?\n{c}"), BACKTICK_POOL),
    (fmt_pair("`{c}` -- what does that do exactly?", "{c} -- what does that do exactly?"), BACKTICK_POOL),
    (fmt_pair("Explain each part of `{c}`.", "Explain each part of this: {c}"), BACKTICK_POOL),
    (fmt_pair("Is `{c}` safe to run, or can it break something?", "Is {c} safe to run, or can it break something?"), BACKTICK_POOL),
    (fmt_pair("I want to {p}. Does `{c}` do that?", "I want to {p}. Does {c} do that?"), BACKTICK_POOL),
]

HOWTO_POOL = [dict(vp=v) for v in [
    "delete a remote git branch",
    "follow the last 20 lines of a log file as it grows",
    "list all Kubernetes pods in every namespace",
    "remove all stopped Docker containers",
    "undo the last git commit but keep my changes",
    "find which process is using port 5432 on Linux",
    "check the installed version of a pip package",
    "create a new git branch and switch to it",
    "search recursively for a string in all .py files",
    "restart every pod in a Kubernetes deployment",
    "see the environment variables of a running Docker container",
    "count the lines in a file",
    "list all tables in a PostgreSQL database from psql",
    "show the diff of staged changes in git",
    "change the remote URL of a git repository",
    "upgrade pip itself",
    "get a shell inside a running Kubernetes pod",
    "decode a base64 string in the terminal",
    "list the resources in the current Terraform state",
    "tag a local Docker image before pushing it to a registry",
    "discard all local changes to a single file in git",
    "show disk usage per mounted filesystem",
]]
for _it in HOWTO_POOL:
    _it["VP"] = ucfirst(_it["vp"])
HOWTO_TEMPLATES = [
    (fmt_pair("How do I {vp}?", "What's the command to {vp}?"), HOWTO_POOL),
    (fmt_pair("How can I {vp}?", "{VP} -- how?"), HOWTO_POOL),
    (fmt_pair("Is there a way to {vp}?", "How do I {vp}?"), HOWTO_POOL),
    (fmt_pair("How would I {vp}?", "Need to {vp}. How?"), HOWTO_POOL),
    (fmt_pair("How do I {vp}?", "What command do I use to {vp}?"), HOWTO_POOL),
    (fmt_pair("I want to {vp}. How do I do that?", "How do you {vp}?"), HOWTO_POOL),
    (fmt_pair("What's the command to {vp}?", "Which command lets me {vp}?"), HOWTO_POOL),
]

ALIAS_TASKS = {
    ("k8s", "Kubernetes"): ["restart all pods in a deployment", "store a database password as a secret",
                            "limit how much memory a container can use", "run a job on a schedule"],
    ("Postgres", "PostgreSQL"): ["add a unique constraint to an existing column", "see the currently running queries",
                                 "create a read-only user", "reset a sequence after a bulk import"],
    ("TS", "TypeScript"): ["make every property of an interface optional", "exclude null from a union type",
                           "declare types for a JS library that ships none"],
    ("JS", "JavaScript"): ["deep copy an object", "remove duplicates from an array",
                           "wait for several promises at once"],
    ("Mongo", "MongoDB"): ["add an index on a nested field", "find documents where an array field is empty",
                           "rename a field in every document"],
    ("GH Actions", "GitHub Actions"): ["run a job only on the main branch", "cache node_modules between runs",
                                       "pass an output from one job to another", "trigger a workflow manually"],
    ("Node", "Node.js"): ["read a file line by line", "get the command-line arguments"],
    ("golang", "Go"): ["parse JSON into a struct", "cancel a goroutine after a timeout",
                       "embed static files in the binary"],
    ("Compose", "Docker Compose"): ["make one service wait until another is healthy",
                                    "override the command for a single service"],
    ("VS Code", "Visual Studio Code"): ["format a file on save", "debug a Python script with command-line arguments"],
}
ALIAS_POOL = [dict(short=s, full=f, task=t) for (s, f), ts in ALIAS_TASKS.items() for t in ts]


def alias_pair(fmt):
    def make(item):
        return (fill(fmt, dict(item, t=item["full"])), fill(fmt, dict(item, t=item["short"])))
    return make


ALIAS_TEMPLATES = [
    (alias_pair("How do I {task} in {t}?"), ALIAS_POOL),
    (alias_pair("{t}: how do I {task}?"), ALIAS_POOL),
    (alias_pair("What's the best way to {task} in {t}?"), ALIAS_POOL),
    (alias_pair("In {t}, is there a built-in way to {task}?"), ALIAS_POOL),
    (alias_pair("I'm working with {t}. How can I {task}?"), ALIAS_POOL),
    (alias_pair("Can you show me how to {task} with {t}?"), ALIAS_POOL),
]

CONTEXT_POOL = [dict(q=q) for q in [
    "What does the `-u` flag in `git push -u origin main` do?",
    "How do I convert a Unix timestamp to a `datetime` in Python?",
    "What's the difference between `git fetch` and `git pull`?",
    "How do I make a Docker container restart automatically after it crashes?",
    "What does `EXPOSE 8080` in a Dockerfile actually do?",
    "How do I write a SQL query that returns the second highest salary?",
    "How do I check if a key exists in a Python dict?",
    "Does `kubectl apply -f manifests/` pick up files in subfolders?",
    "How do I sort a slice of structs by a field in Go?",
    "What's the difference between `Vec<T>` and `&[T]` in Rust?",
    "How do I return JSON from an Express route?",
    "What does `0 0 * * 0` mean in a cron expression?",
    "How do I list the files changed in the last git commit?",
    "How do I make a column auto-increment in PostgreSQL?",
    "What does `--no-cache-dir` do in `pip install`?",
    "How do I read an environment variable in Java?",
    "What's the difference between `CMD` and `ENTRYPOINT` in a Dockerfile?",
    "How do I add a healthcheck to a service in a docker-compose file?",
    "How do I pretty-print a JSON file in the terminal with `jq`?",
    "What does `HEAD~2` refer to in git?",
    "What's the difference between `useMemo` and `useCallback` in React?",
]]
CONTEXTS = ["This is for a side project.", "I've been stuck on this for a while.",
            "A coworker asked me and I blanked.", "Just want to double-check my understanding.",
            "I'm putting together internal notes for my team.",
            "This came up while I was reviewing a pull request.", "It's for a weekend hobby project."]
REASONS = ["I'm reviewing a teammate's PR", "I'm writing onboarding docs for new hires",
           "it came up in standup today", "I'm tidying up an old side project"]


def context_pair(kind):
    def make(item):
        q = item["q"]
        ctx = rng.choice(CONTEXTS)
        if kind == 0:
            return q, ctx + " " + q
        if kind == 1:
            return q, q + " " + ctx
        if kind == 2:
            return q, "Some background: " + lcfirst(ctx) + " Anyway, " + lcfirst(q)
        if kind == 3:
            return q, q + "\n\n(For context: " + lcfirst(ctx) + ")"
        if kind == 4:
            return q, ctx + "\n" + q
        return q, "Asking because " + rng.choice(REASONS) + ". " + q
    return make


CONTEXT_TEMPLATES = [(context_pair(k), CONTEXT_POOL) for k in range(6)]

POSITIVES = [
    ("reworded_question", REWORD_TEMPLATES),
    ("snippet_question_order", ORDER_TEMPLATES),
    ("greeting_politeness", GREET_TEMPLATES),
    ("informal_typing", INFORMAL_TEMPLATES),
    ("backticks_vs_plain", BACKTICK_TEMPLATES),
    ("howto_phrasing", HOWTO_TEMPLATES),
    ("tool_alias", ALIAS_TEMPLATES),
    ("irrelevant_context", CONTEXT_TEMPLATES),
]


# ---------------------------------------------------------------------------
# GENERATION
# ---------------------------------------------------------------------------

SEEN = set()


def _add(out, cat, a, b):
    key = frozenset((a, b))
    if a == b or key in SEEN:
        return False
    SEEN.add(key)
    if rng.random() < 0.5:
        a, b = b, a
    out.append({"category": cat, "stored": a, "query": b})
    return True


def gen_near_miss(cat, templates, n):
    out = []
    queues = {}
    for t in templates:
        queues.setdefault(id(t["pairs"]), Queue(t["pairs"]))
    i = misses = 0
    while len(out) < n:
        t = templates[i % len(templates)]
        i += 1
        x, y = queues[id(t["pairs"])].draw()
        shared = {k: rng.choice(v) for k, v in t.get("shared", {}).items()}
        if t.get("mode") == "swap":
            a = fill(t["fmt"], dict(shared, a=x, b=y))
            b = fill(t["fmt"], dict(shared, a=y, b=x))
        else:
            a = fill(t["fmt"], dict(shared, **{t["slot"]: x}))
            b = fill(t["fmt"], dict(shared, **{t["slot"]: y}))
        if _add(out, cat, a, b):
            misses = 0
        else:
            misses += 1
            if misses > 500:
                raise RuntimeError("cannot fill category " + cat)
    return out


def gen_positive(cat, templates, n):
    out = []
    queues = {}
    for _make, pool in templates:
        queues.setdefault(id(pool), Queue(pool))
    i = misses = 0
    while len(out) < n:
        make, pool = templates[i % len(templates)]
        i += 1
        a, b = make(queues[id(pool)].draw())
        if _add(out, cat, a, b):
            misses = 0
        else:
            misses += 1
            if misses > 500:
                raise RuntimeError("cannot fill category " + cat)
    return out


def main():
    text_pairs = []
    for cat, templates in NEAR_MISS:
        text_pairs.extend(gen_near_miss(cat, templates, PER_NEAR_MISS))
    positives = []
    for cat, templates in POSITIVES:
        positives.extend(gen_positive(cat, templates, PER_POSITIVE))

    description = (
        "Held-out semantic prompt cache evaluation set v31, written blind (all templates and word lists "
        "written from scratch without looking at any other data set or at the project's code). Theme: what "
        "software developers and operators type into a coding assistant day to day: pasted error messages and "
        "stack-trace lines, CLI flags, HTTP status codes and methods, API endpoints, environment variables, "
        "YAML/JSON/TOML/nginx/Dockerfile config fragments, file paths, ports, language and library versions, "
        "log levels, git operations, SQL and shell one-liners, Docker/Kubernetes/CI settings and cloud services, "
        "across Python, JavaScript/TypeScript, Go, Rust, Java, SQL, bash, git, Docker, Kubernetes, nginx, "
        "Terraform and GitHub Actions, as one-line questions, questions with inline code spans and multi-line "
        "prompts with a pasted snippet, log or config. text_pairs holds %d near-miss pairs that must NOT be "
        "served from cache (%d categories x %d: %s); positives holds %d paraphrase pairs that SHOULD be served "
        "(%d categories x %d: %s). Each category uses at least six templates round-robin; all pairs are unique "
        "and stored != query. Generated with the standard library only, random.Random(%d), by "
        "benchmarks/caches/make_heldout_v31.py."
        % (len(text_pairs), len(NEAR_MISS), PER_NEAR_MISS, ", ".join(c for c, _ in NEAR_MISS),
           len(positives), len(POSITIVES), PER_POSITIVE, ", ".join(c for c, _ in POSITIVES), SEED)
    )
    data = {"description": description, "text_pairs": text_pairs, "positives": positives}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "heldout_generated_v31.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=2)
        f.write("\n")
    print("wrote %s: %d text_pairs, %d positives" % (path, len(text_pairs), len(positives)))


if __name__ == "__main__":
    main()
