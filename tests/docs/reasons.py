"""Every ErrorInfo reason the code can raise, found by reading the source (not by asking the code).

A refusal is built in a handful of ways: the gateway's helpers (`invalid`, `precondition`,
`unavailable`, `not_found`, `unauthenticated`, `permission_denied`), `GatewayError(code, reason, ...)`,
the rules services' `error_status(code, reason, ...)`, and the `RulesError` classes with their `code`
and `reason` attributes. Each call site names its reason as a literal (or a module constant), so the
source says which reasons exist and with which code.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("gateway", "workers", "services", "live")

# helper -> (its code, where its reason comes from: an argument index, or a fixed reason)
HELPERS: dict[str, tuple[str, int | str]] = {
    "invalid": ("INVALID_ARGUMENT", 0),
    "precondition": ("FAILED_PRECONDITION", 0),
    "unavailable": ("UNAVAILABLE", 0),
    "unauthenticated": ("UNAUTHENTICATED", "UNAUTHENTICATED"),
    "permission_denied": ("PERMISSION_DENIED", "PERMISSION_DENIED"),
}
CODED = ("GatewayError", "error_status")  # (code, reason, ...)
RULES_ERROR_BASE = "RulesError"


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _constants(tree: ast.Module) -> dict[str, str]:
    """Module-level NAME = "literal" assignments."""
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                    found[target.id] = node.value.value
    return found


def _literal(node: ast.expr, constants: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    return None


def _rules_error_classes(trees: list[ast.Module]) -> dict[str, tuple[str, str]]:
    """RulesError and its subclasses: class name -> (code, reason), inherited attributes resolved."""
    raw: dict[str, tuple[list[str], dict[str, str]]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                attrs = {
                    target.id: stmt.value.value
                    for stmt in node.body
                    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant)
                    for target in stmt.targets
                    if isinstance(target, ast.Name) and isinstance(stmt.value.value, str)
                }
                raw[node.name] = ([b for b in map(_name, node.bases) if b], attrs)

    # Classes are known by name only, and names repeat across modules (`class Connection(
    # aioredis.Connection)`): a base already on the way is not followed again.
    def resolve(name: str, attr: str, seen: frozenset[str] = frozenset()) -> str | None:
        bases, attrs = raw[name]
        if attr in attrs:
            return attrs[attr]
        on_way = seen | {name}
        return next(
            (v for b in bases if b in raw and b not in on_way and (v := resolve(b, attr, on_way))), None
        )

    def is_rules_error(name: str, seen: frozenset[str] = frozenset()) -> bool:
        on_way = seen | {name}
        return name == RULES_ERROR_BASE or any(
            b in raw and b not in on_way and is_rules_error(b, on_way) for b in raw[name][0]
        )

    return {
        name: (resolve(name, "code") or "", resolve(name, "reason") or "")
        for name in raw
        if is_rules_error(name) and name != RULES_ERROR_BASE
    }


def _hands_on(reason: ast.expr, params: set[str]) -> bool:
    """Whether a reason argument is made of the enclosing function's parameters or an object's
    attribute (a constructor passing a reason on), rather than naming one."""
    if isinstance(reason, ast.Attribute):
        return True
    names = [n.id for n in ast.walk(reason) if isinstance(n, ast.Name)]
    return bool(names) and all(n in params for n in names)


def _calls_with_params(tree: ast.Module) -> list[tuple[ast.Call, set[str]]]:
    """Every call, with the parameter names of the functions around it."""
    found: list[tuple[ast.Call, set[str]]] = []

    def visit(node: ast.AST, params: set[str]) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            params = params | {a.arg for a in (*node.args.args, *node.args.kwonlyargs)}
        if isinstance(node, ast.Call):
            found.append((node, params))
        for child in ast.iter_child_nodes(node):
            visit(child, params)

    visit(tree, set())
    return found


def raised_reasons() -> dict[str, set[str]]:
    """reason -> the gRPC codes it is raised with, over every module of the process packages."""
    trees = [
        (path, ast.parse(path.read_text(), str(path)))
        for package in PACKAGES
        if (ROOT / package).is_dir()
        for path in sorted((ROOT / package).rglob("*.py"))
    ]
    found: dict[str, set[str]] = {}
    for code, reason in _rules_error_classes([tree for _, tree in trees]).values():
        found.setdefault(reason, set()).add(code)
    for path, tree in trees:
        constants = _constants(tree)
        for node, params in _calls_with_params(tree):
            if (name := _name(node.func)) is None:
                continue
            reason_arg = node.args[1] if name in CODED and len(node.args) >= 2 else None
            if name in HELPERS and isinstance(HELPERS[name][1], int) and node.args:
                reason_arg = node.args[0]
            if reason_arg is not None and _hands_on(reason_arg, params):
                continue  # a constructor handing on its caller's reason, or an error's own
            if isinstance(node.func, ast.Attribute) and name in HELPERS and name != "unavailable":
                continue  # a method of another object that shares a helper's name
            if name in HELPERS and node.args:
                code, source = HELPERS[name]
                reason = source if isinstance(source, str) else _literal(node.args[source], constants)
            elif name == "not_found" and node.args:
                code, what = "NOT_FOUND", _literal(node.args[0], constants)
                reason = f"{what.upper()}_NOT_FOUND" if what else None
            elif name in CODED and len(node.args) >= 2:
                if isinstance(node.args[1], ast.Call):
                    continue  # a reason passed on from another service's answer
                coded = node.args[0]
                code = coded.attr if isinstance(coded, ast.Attribute) else ""
                reason = _literal(node.args[1], constants)
            else:
                continue
            if reason is None:
                raise AssertionError(
                    f"{path.relative_to(ROOT)}:{node.lineno}: a refusal whose reason is not a literal "
                    "or a module constant; name it so the errors table can be checked"
                )
            found.setdefault(reason, set()).add(code)
    return found
