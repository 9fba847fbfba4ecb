#!/usr/bin/python3
"""Checks hoist's JSON against the schemas in docs/schema (Debian's python3-jsonschema).

  check_json_schema.py SCHEMA_DIR --schemas     every schema is valid draft 2020-12, names
                                                its keys in snake_case, and closes each object
  check_json_schema.py SCHEMA_DIR NAME FILE...  each FILE ("-": stdin) against NAME.schema.json

A schema closes an object with additionalProperties or unevaluatedProperties false, so an output
that gains or renames a key fails here until the schema says so.
"""
import json
import os
import re
import sys

import jsonschema

SNAKE_CASE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


def fail(message):
    sys.exit("check_json_schema: " + message)


def nodes(schema, path="#"):
    """Every subschema, with its JSON pointer."""
    if isinstance(schema, dict):
        yield path, schema
        for key, value in schema.items():
            if key in ("properties", "$defs", "dependentRequired"):
                if key != "dependentRequired":
                    for name, sub in value.items():
                        yield from nodes(sub, f"{path}/{key}/{name}")
            elif isinstance(value, (dict, list)):
                yield from nodes(value, f"{path}/{key}")
    elif isinstance(schema, list):
        for i, item in enumerate(schema):
            yield from nodes(item, f"{path}/{i}")


def keys_named(node):
    """The output keys a subschema names: properties, required, dependentRequired."""
    yield from node.get("properties", {})
    yield from node.get("required", [])
    for key, needed in node.get("dependentRequired", {}).items():
        yield key
        yield from needed


def check_schema(path):
    with open(path) as file:
        schema = json.load(file)
    jsonschema.Draft202012Validator.check_schema(schema)
    if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
        fail(f"{path}: not a draft 2020-12 schema")
    closed_by_user = set()   # $defs a closing schema refers to: that schema closes them
    for _, node in nodes(schema):
        if node.get("unevaluatedProperties") is False and "$ref" in node:
            closed_by_user.add(node["$ref"])
    for where, node in nodes(schema):
        for key in keys_named(node):
            if not SNAKE_CASE.match(key):
                fail(f"{path}: {where}: key {key!r} is not snake_case")
        for key in node.get("required", []) if "properties" in node else []:
            if key not in node["properties"]:
                fail(f"{path}: {where}: required key {key!r} has no schema")
        closed = (node.get("additionalProperties") is False or
                  node.get("unevaluatedProperties") is False or where in closed_by_user)
        if "properties" in node and not closed:
            fail(f"{path}: {where}: an object whose keys are listed must be closed "
                 "(additionalProperties: false)")


def load_instance(path):
    if path == "-":
        return json.load(sys.stdin)
    with open(path) as file:
        return json.load(file)


def main():
    schema_dir, what = sys.argv[1], sys.argv[2]
    if what == "--schemas":
        names = sorted(n for n in os.listdir(schema_dir) if n.endswith(".schema.json"))
        if not names:
            fail(f"{schema_dir}: no schemas")
        for name in names:
            check_schema(os.path.join(schema_dir, name))
        print(f"ok: {len(names)} schemas")
        return
    with open(os.path.join(schema_dir, what + ".schema.json")) as file:
        validator = jsonschema.Draft202012Validator(json.load(file))
    for path in sys.argv[3:]:
        errors = sorted(validator.iter_errors(load_instance(path)), key=lambda e: list(e.path))
        for error in errors[:10]:
            where = "/".join(str(p) for p in error.absolute_path)
            print(f"{path}: /{where}: {error.message[:300]}", file=sys.stderr)
        if errors:
            fail(f"{path}: {len(errors)} errors against {what}.schema.json")
    print(f"ok: {len(sys.argv) - 3} documents match {what}.schema.json")


main()
