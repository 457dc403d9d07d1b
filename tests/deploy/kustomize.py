"""A small kustomize renderer for the features deploy/k8s uses, so tests need no kustomize binary.

Supported kustomization fields: `resources` (files and folders), `namespace`, `images` (newName,
newTag), and `patches` given either by `path` (a strategic-merge patch, `$patch: delete` included) or
by `target` with an inline JSON 6902 `patch`. Anything else raises, so a kustomization that outgrows
this renderer fails loudly instead of rendering wrong. Where `kubectl` exists, a test checks that this
renderer and `kubectl kustomize` give the same objects.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

SUPPORTED = {"apiVersion", "kind", "resources", "namespace", "images", "patches"}
CLUSTER_SCOPED = {"Namespace", "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition"}
# Kinds whose pod template and containers live at these paths.
POD_SPEC_PATHS = {
    "Deployment": ("spec", "template", "spec"),
    "StatefulSet": ("spec", "template", "spec"),
    "DaemonSet": ("spec", "template", "spec"),
    "Job": ("spec", "template", "spec"),
}

Obj = dict[str, Any]


def key(obj: Obj) -> tuple[str, str]:
    """An object's identity within one rendering: (kind, name)."""
    return obj["kind"], obj["metadata"]["name"]


def load_documents(path: Path) -> list[Obj]:
    """The non-empty YAML documents of a file."""
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def render(folder: Path) -> list[Obj]:
    """The objects a kustomization folder renders to, in resource order."""
    spec = yaml.safe_load((folder / "kustomization.yaml").read_text())
    unknown = set(spec) - SUPPORTED
    if unknown:
        raise NotImplementedError(f"{folder}: kustomization fields not supported here: {sorted(unknown)}")
    objects: list[Obj] = []
    for entry in spec.get("resources", []):
        path = (folder / entry).resolve()
        objects.extend(render(path) if path.is_dir() else load_documents(path))
    for patch in spec.get("patches", []):
        objects = apply_patch(folder, objects, patch)
    for image in spec.get("images", []):
        for obj in objects:
            for container in containers(obj):
                set_image(container, image)
    if "namespace" in spec:
        for obj in objects:
            if obj["kind"] not in CLUSTER_SCOPED:
                obj["metadata"]["namespace"] = spec["namespace"]
    seen: set[tuple[str, str]] = set()
    for obj in objects:
        if key(obj) in seen:
            raise ValueError(f"{folder}: {key(obj)} is defined twice")
        seen.add(key(obj))
    return objects


def containers(obj: Obj) -> list[Obj]:
    """The containers and init containers of a workload; none for other kinds."""
    path = POD_SPEC_PATHS.get(obj["kind"])
    if path is None:
        return []
    spec: Any = obj
    for part in path:
        spec = spec[part]
    return [*spec.get("initContainers", []), *spec.get("containers", [])]


def set_image(container: Obj, image: Obj) -> None:
    """Apply one `images` entry to a container whose image has that entry's name."""
    name, _, tag = container["image"].partition(":")
    if name != image["name"]:
        return
    name = image.get("newName", name)
    tag = image.get("newTag", tag)
    container["image"] = f"{name}:{tag}" if tag else name


def apply_patch(folder: Path, objects: list[Obj], patch: Obj) -> list[Obj]:
    """The objects after one `patches` entry."""
    if "path" in patch:
        result = objects
        for document in load_documents(folder / patch["path"]):
            result = strategic_merge(result, document)
        return result
    target = patch["target"]
    operations = yaml.safe_load(patch["patch"])
    matched = [
        obj
        for obj in objects
        if obj["kind"] == target.get("kind", obj["kind"])
        and obj["metadata"]["name"] == target.get("name", obj["metadata"]["name"])
    ]
    if not matched:
        raise ValueError(f"patch target {target} matches nothing")
    for obj in matched:
        for operation in operations:
            json_patch(obj, operation)
    return objects


def strategic_merge(objects: list[Obj], patch: Obj) -> list[Obj]:
    """The objects with a strategic-merge patch applied to the one of the same kind and name."""
    patch = copy.deepcopy(patch)
    delete = patch.pop("$patch", None) == "delete"
    matches = [obj for obj in objects if key(obj) == key(patch)]
    if len(matches) != 1:
        raise ValueError(f"strategic-merge patch {key(patch)} matches {len(matches)} objects")
    if delete:
        return [obj for obj in objects if obj is not matches[0]]
    merge(matches[0], patch)
    return objects


def merge(base: Any, patch: Any) -> Any:
    """Merge `patch` into `base` in place: maps key by key, lists of named maps by name."""
    for name, value in patch.items():
        current = base.get(name)
        if isinstance(current, dict) and isinstance(value, dict):
            merge(current, value)
        elif (
            isinstance(current, list)
            and isinstance(value, list)
            and all(isinstance(item, dict) and "name" in item for item in [*current, *value])
        ):
            by_name = {item["name"]: item for item in current}
            for item in value:
                if item["name"] in by_name:
                    merge(by_name[item["name"]], item)
                else:
                    current.append(item)
        else:
            base[name] = value
    return base


def json_patch(obj: Obj, operation: Obj) -> None:
    """Apply one JSON 6902 operation (add, replace or remove) in place."""
    parts = [part.replace("~1", "/").replace("~0", "~") for part in operation["path"].lstrip("/").split("/")]
    parent: Any = obj
    for part in parts[:-1]:
        parent = parent[int(part)] if isinstance(parent, list) else parent[part]
    last = parts[-1]
    op = operation["op"]
    if isinstance(parent, list):
        index = len(parent) if last == "-" else int(last)
        if op == "add":
            parent.insert(index, operation["value"])
        elif op == "replace":
            parent[index] = operation["value"]
        elif op == "remove":
            del parent[index]
        else:
            raise NotImplementedError(op)
        return
    if op in ("add", "replace"):
        if op == "replace" and last not in parent:
            raise KeyError(f"replace of a missing path {operation['path']}")
        parent[last] = operation["value"]
    elif op == "remove":
        del parent[last]
    else:
        raise NotImplementedError(op)
