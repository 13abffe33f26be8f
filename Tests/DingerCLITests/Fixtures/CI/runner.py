#!/usr/bin/env python3
"""Runs a GitHub Actions workflow or a GitLab CI file's jobs as their runners would, on this
machine standing in for the job's container: each job whose condition holds for the event,
its steps in order, in the runner's shell, with the runner's variables, a checkout owned by
another user (as container jobs have it), caches kept between runs, and artifacts checked.

    runner.py github FILE --event push|pull_request|schedule|workflow_dispatch [--schedule CRON]
    runner.py gitlab FILE --source push|merge_request_event|schedule
    common: --repo BARE (what the checkout clones) --work DIR --owner UID --secret K=V --var K=V
            --cache DIR --source-tree DIR (a checkout of the tree itself, not a clone)

It prints `job NAME` and `step NAME: ok|failed|skipped (SECONDS s)` lines, and exits 1 when a
step fails, 2 when the file asks for something it cannot stand in for (an image whose system
is not this machine's, an action it does not know).
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time

import yaml


def host_system():
    fields = {}
    with open("/etc/os-release") as f:
        for line in f:
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                fields[k] = v.strip('"')
    return fields.get("ID"), fields.get("VERSION_ID"), fields.get("VERSION_CODENAME")


def tools_version(tree):
    with open(os.path.join(tree, "Package.swift")) as f:
        m = re.match(r"// swift-tools-version:\s*(\d+)\.(\d+)", f.readline())
    return (int(m.group(1)), int(m.group(2))) if m else None


def stand_in_for(image, tree=None):
    """Refuses an image this machine cannot stand in for: another system, or a Swift image
    older than the package's swift-tools-version (SwiftPM in it would refuse the package)."""
    if image is None:
        return
    system, version, codename = host_system()
    name, _, tag = image.partition(":")
    if name == "debian":
        if tag.split("-")[0] not in (version, codename):
            sys.exit(f"runner: image {image} is not this machine's system (debian {version} {codename})")
        return
    if name == "swift":
        m = re.match(r"(\d+)\.(\d+)(?:\.\d+)?-(\w+)$", tag)
        if not m or m.group(3) != codename:
            sys.exit(f"runner: image {image} is not this machine's system ({codename})")
        needed = tools_version(tree) if tree else None
        if needed and (int(m.group(1)), int(m.group(2))) < needed:
            print(f"runner: image {image} has Swift {m.group(1)}.{m.group(2)}; Package.swift needs "
                  f"swift-tools-version {needed[0]}.{needed[1]}: SwiftPM refuses the package")
            sys.exit(1)
        return
    sys.exit(f"runner: no stand-in for image {image}")


def run_shell(shell, script, env, cwd, label):
    """Runs a step's script as the runner does: written to a file, run by the named shell."""
    path = os.path.join(env["RUNNER_TEMP"], f"step-{time.monotonic_ns()}.sh")
    with open(path, "w") as f:
        f.write(script)
    started = time.monotonic()
    r = subprocess.run(shell + [path], env=env, cwd=cwd)
    took = time.monotonic() - started
    print(f"step {label}: {'ok' if r.returncode == 0 else 'failed'} ({took:.1f} s)", flush=True)
    return r.returncode == 0


def checkout(repo, dest, owner, depth=None, branch="main"):
    if os.path.exists(dest):
        shutil.rmtree(dest)
    args = ["git", "clone", "-q", "--branch", branch]
    if depth:
        args += ["--depth", str(depth), "--no-single-branch"]
    # NB: a shallow clone of a local path needs file://
    subprocess.run(args + ["file://" + repo if depth else repo, dest], check=True)
    subprocess.run(["chown", "-R", f"{owner}:{owner}", dest], check=True)


# GitHub Actions expressions: the subset the recipes use (contexts, string literals, ==, !=,
# !, &&, ||, parentheses), evaluated as the runner does (strings compared case-insensitively).
TOKEN = re.compile(r"\s*(?:(\|\||&&|==|!=|!|\(|\))|'((?:[^']|'')*)'|([A-Za-z_][\w.\-]*))")


def evaluate(text, context):
    tokens, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            sys.exit(f"runner: cannot read the expression {text!r}")
        pos = m.end()
        if m.group(1):
            tokens.append(("op", m.group(1)))
        elif m.group(2) is not None:
            tokens.append(("str", m.group(2).replace("''", "'")))
        else:
            tokens.append(("name", m.group(3)))
    i = 0

    def peek():
        return tokens[i] if i < len(tokens) else (None, None)

    def take():
        nonlocal i
        i += 1
        return tokens[i - 1]

    def primary():
        kind, value = take()
        if (kind, value) == ("op", "!"):
            return not truthy(primary())
        if (kind, value) == ("op", "("):
            v = disjunction()
            take()
            return v
        if kind == "str":
            return value
        if value in ("true", "false"):
            return value == "true"
        v = context
        for part in value.split("."):
            v = v.get(part, "") if isinstance(v, dict) else ""
        return v

    def comparison():
        left = primary()
        while peek() in (("op", "=="), ("op", "!=")):
            op = take()[1]
            right = primary()
            same = str(left).lower() == str(right).lower()
            left = same if op == "==" else not same
        return left

    def conjunction():
        v = comparison()
        while peek() == ("op", "&&"):
            take()
            right = comparison()
            v = right if truthy(v) else v
        return v

    def disjunction():
        v = conjunction()
        while peek() == ("op", "||"):
            take()
            right = conjunction()
            v = v if truthy(v) else right
        return v

    return disjunction()


def truthy(v):
    return v not in (False, "", None, 0)


def substitute(value, context):
    if not isinstance(value, str):
        return value
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(evaluate(m.group(1), context)), value)


def github(args):
    with open(args.file) as f:
        flow = yaml.safe_load(f)
    events = flow.get(True, flow.get("on"))  # NB: YAML 1.1 reads the key `on` as true
    if args.event not in (events if isinstance(events, (list, dict)) else [events]):
        print(f"the workflow does not run on {args.event}")
        return 0
    if args.event == "schedule" and args.schedule not in [s["cron"] for s in events["schedule"]]:
        sys.exit(f"runner: the workflow has no schedule {args.schedule}")
    context = {
        "github": {"event_name": args.event, "ref": "refs/heads/main", "run_id": str(os.getpid()),
                   "event": {"schedule": args.schedule or ""}, "workspace": ""},
        "secrets": dict(args.secret), "vars": dict(args.var), "env": {},
    }
    failed = False
    for name, job in flow["jobs"].items():
        if "if" in job and not truthy(evaluate(job["if"], context)):
            print(f"job {name}: skipped")
            continue
        print(f"job {name}", flush=True)
        container = job.get("container")
        image = container if isinstance(container, str) else (container or {}).get("image")
        stand_in_for(image, args.source_tree)
        if any(s.get("uses", "").startswith("actions/deploy-pages") for s in job["steps"]):
            env_name = (job.get("environment") or {})
            env_name = env_name.get("name") if isinstance(env_name, dict) else env_name
            if env_name != "github-pages":
                print("step deploy-pages: failed (the job must have environment github-pages)")
                return 1
        work = os.path.join(args.work, name)
        shutil.rmtree(work, ignore_errors=True)
        workspace = os.path.join(work, "workspace")
        home = os.path.join(work, "home")
        temp = os.path.join(work, "temp")
        for d in (home, temp):
            os.makedirs(d)
        context["github"]["workspace"] = workspace
        shell_default = ((flow.get("defaults") or {}).get("run") or {}).get("shell")
        env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
               "HOME": home, "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workspace,
               "GITHUB_EVENT_NAME": args.event, "GITHUB_REF": "refs/heads/main",
               "GITHUB_REF_NAME": args.ref_name or "main", "RUNNER_TEMP": temp, "LANG": "C.UTF-8"}
        if image and image.startswith("swift:") and shutil.which("swift"):
            # The image's toolchain is on its PATH: this machine's stands in for it.
            env["PATH"] = os.path.dirname(os.path.realpath(shutil.which("swift"))) + ":" + env["PATH"]
        for level in (flow.get("env") or {}, job.get("env") or {}):
            for k, v in level.items():
                env[k] = substitute(str(v), {**context, "env": env})
        posts = []
        for index, step in enumerate(job["steps"]):
            label = step.get("name") or step.get("uses") or f"#{index + 1}"
            step_context = {**context, "env": env}
            if "if" in step and not truthy(evaluate(step["if"], step_context)):
                print(f"step {label}: skipped")
                continue
            step_env = dict(env)
            for k, v in (step.get("env") or {}).items():
                step_env[k] = substitute(str(v), step_context)
            started = time.monotonic()
            uses = step.get("uses")
            if uses:
                action, _, _ = uses.partition("@")
                inputs = {k: substitute(str(v), step_context) for k, v in (step.get("with") or {}).items()}
                ok = True
                if action == "actions/checkout":
                    if args.source_tree:
                        workspace = args.source_tree
                        env["GITHUB_WORKSPACE"] = workspace
                        context["github"]["workspace"] = workspace
                    else:
                        depth = int(inputs.get("fetch-depth", "1"))
                        checkout(args.repo, workspace, args.owner, depth=depth or None)
                elif action == "actions/cache":
                    path = os.path.join(workspace, inputs["path"])
                    key = inputs["key"]
                    prefixes = [p for p in inputs.get("restore-keys", "").split("\n") if p]
                    found = [os.path.join(args.cache, key)] if os.path.exists(os.path.join(args.cache, key)) else []
                    for prefix in prefixes:
                        found += sorted(glob.glob(os.path.join(args.cache, glob.escape(prefix) + "*")),
                                        key=os.path.getmtime, reverse=True)
                    if found:
                        os.makedirs(os.path.dirname(path), exist_ok=True)
                        shutil.copy(found[0], path)
                    posts.append(("cache", path, key))
                elif action == "actions/upload-pages-artifact":
                    folder = os.path.join(workspace, inputs.get("path", "_site"))
                    ok = os.path.isfile(os.path.join(folder, "index.html"))
                elif action == "actions/deploy-pages":
                    ok = True
                elif action == "softprops/action-gh-release":
                    patterns = [p.strip() for p in inputs.get("files", "").split("\n") if p.strip()]
                    ok = bool(patterns) and all(glob.glob(os.path.join(workspace, p)) for p in patterns)
                    for p in patterns:
                        for file in glob.glob(os.path.join(workspace, p)):
                            print(f"release asset: {os.path.basename(file)}")
                else:
                    sys.exit(f"runner: no stand-in for the action {uses}")
                print(f"step {label}: {'ok' if ok else 'failed'} ({time.monotonic() - started:.1f} s)")
            else:
                shell = step.get("shell") or shell_default
                argv = (["bash", "--noprofile", "--norc", "-eo", "pipefail"] if shell == "bash"
                        else ["bash", "-e"] if shell is None else ["sh", "-e"])
                cwd = workspace if os.path.isdir(workspace) else work
                ok = run_shell(argv, substitute(step["run"], step_context), step_env, cwd, label)
            if not ok:
                failed = True
                break
        if not failed:
            for kind, path, key in posts:
                if kind == "cache" and os.path.exists(path) and not os.path.exists(os.path.join(args.cache, key)):
                    os.makedirs(args.cache, exist_ok=True)
                    shutil.copy(path, os.path.join(args.cache, key))
        if failed:
            return 1
    return 0


def gitlab_rule(expression, variables):
    """A rules: if: expression: $VAR, "string", ==, !=, &&, ||, parentheses."""
    def value(token):
        if token.startswith("$"):
            return variables.get(token[1:])
        return token.strip('"')
    parts = re.findall(r'\$\w+|"[^"]*"|==|!=|&&|\|\||\(|\)', expression)
    # NB: the recipes use && and || without parentheses; && binds tighter.
    ors, current = [], []
    for p in parts + ["||"]:
        if p == "||":
            ors.append(current)
            current = []
        else:
            current.append(p)
    def conjunct(tokens):
        result = True
        for clause in " ".join(tokens).split(" && "):
            t = clause.split()
            if len(t) == 3:
                same = value(t[0]) == value(t[2])
                result = result and (same if t[1] == "==" else not same)
            else:
                result = result and bool(value(t[0]))
        return result
    return any(conjunct(c) for c in ors)


def gitlab(args):
    with open(args.file) as f:
        pipeline = yaml.safe_load(f)
    reserved = {"default", "variables", "stages", "workflow", "include", "image", "services",
                "before_script", "after_script", "cache"}
    default = pipeline.get("default") or {}
    failed = False
    for name, job in pipeline.items():
        if name in reserved or name.startswith(".") or not isinstance(job, dict):
            continue
        work = os.path.join(args.work, name)
        shutil.rmtree(work, ignore_errors=True)
        project = os.path.join(work, "project")
        home = os.path.join(work, "home")
        temp = os.path.join(work, "temp")
        for d in (home, temp):
            os.makedirs(d)
        variables = {"CI": "true", "GITLAB_CI": "true", "CI_PIPELINE_SOURCE": args.source,
                     "CI_COMMIT_BRANCH": "main", "CI_DEFAULT_BRANCH": "main",
                     "CI_PROJECT_DIR": project, "CI_JOB_NAME": name, "HOME": home,
                     "RUNNER_TEMP": temp, "LANG": "C.UTF-8",
                     "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
        variables.update({k: str(v) for k, v in (pipeline.get("variables") or {}).items()})
        variables.update(dict(args.var))
        variables.update(dict(args.secret))
        variables.update({k: str(v) for k, v in (job.get("variables") or {}).items()})
        rules = job.get("rules")
        if rules is not None and not any(gitlab_rule(r["if"], variables) for r in rules if "if" in r):
            print(f"job {name}: skipped")
            continue
        print(f"job {name}", flush=True)
        stand_in_for(job.get("image", default.get("image", pipeline.get("image"))), args.source_tree)
        depth = int(variables.get("GIT_DEPTH", "20"))
        checkout(args.repo, project, args.owner, depth=depth or None)
        cache = job.get("cache")
        if cache:
            for path in cache.get("paths", []):
                stored = os.path.join(args.cache, cache["key"], path)
                if os.path.exists(stored):
                    os.makedirs(os.path.dirname(os.path.join(project, path)), exist_ok=True)
                    shutil.copy(stored, os.path.join(project, path))
        before = job.get("before_script", default.get("before_script", pipeline.get("before_script", [])))
        # NB: GitLab runs before_script and script in one shell, stopping at the first failure.
        script = "set -eo pipefail\n" + "\n".join(list(before) + list(job["script"])) + "\n"
        ok = run_shell(["bash", "--noprofile", "--norc"], script, variables, project, name)
        if ok and cache:
            for path in cache.get("paths", []):
                source = os.path.join(project, path)
                if os.path.exists(source):
                    stored = os.path.join(args.cache, cache["key"], path)
                    os.makedirs(os.path.dirname(stored), exist_ok=True)
                    shutil.copy(source, stored)
        if ok:
            for path in (job.get("artifacts") or {}).get("paths", []):
                if not os.path.exists(os.path.join(project, path)):
                    print(f"step {name} artifacts: failed ({path} is missing)")
                    ok = False
        if not ok:
            failed = True
            break
    return 1 if failed else 0


def pair(text):
    k, _, v = text.partition("=")
    return (k, v)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kind", choices=["github", "gitlab"])
    p.add_argument("file")
    p.add_argument("--event")
    p.add_argument("--schedule")
    p.add_argument("--source")
    p.add_argument("--ref-name")
    p.add_argument("--repo")
    p.add_argument("--work", required=True)
    p.add_argument("--owner", default="1001")
    p.add_argument("--cache", default=None)
    p.add_argument("--source-tree")
    p.add_argument("--secret", action="append", type=pair, default=[])
    p.add_argument("--var", action="append", type=pair, default=[])
    args = p.parse_args()
    args.cache = args.cache or os.path.join(args.work, "cache")
    sys.exit(github(args) if args.kind == "github" else gitlab(args))


if __name__ == "__main__":
    main()
