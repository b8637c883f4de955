"""The shapes of a message's parts, as the official JSON Schemas state them: a table, and one checker.

In: a JSON value the server wrote (a content block of a tools/call result, a prompt message's
content...). Out: what it lacks, said in words, or None. The table lists only the members each
version's ``schema.json`` requires, with their JSON type; members it does not list are lawful (the
schemas leave these objects open), and the tests hold the table to the schemas
(tests/fuzz/test_official_schema.py).
"""

from __future__ import annotations

from typing import Final

from mcpref.reference.messages import JsonValue

# The required members of each content block, by its ``type``: the same in every version that has
# the block (schema/<version>/schema.json: TextContent, ImageContent, AudioContent from 2025-03-26,
# ResourceLink from 2025-06-18, EmbeddedResource).
CONTENT_BLOCKS: Final[dict[str, dict[str, type]]] = {
    "text": {"text": str},
    "image": {"data": str, "mimeType": str},
    "audio": {"data": str, "mimeType": str},
    "resource_link": {"uri": str, "name": str},
    "resource": {"resource": dict},
}
# An embedded resource's contents: a uri, and its text (TextResourceContents) or blob (BlobResourceContents).
RESOURCE_BODIES: Final = ("text", "blob")
_TYPE_NAMES: Final[dict[type, str]] = {str: "a string", dict: "an object"}


def content_problem(block: JsonValue) -> str | None:
    """What a content block lacks of its type's required members, or None. A ``type`` the table does
    not know is not judged here: it may be a block of a later version."""
    if not isinstance(block, dict) or not isinstance(block.get("type"), str):
        return "a content item without a string type"
    kind = str(block["type"])
    members = CONTENT_BLOCKS.get(kind, {})
    for name, kind_of in members.items():
        if not isinstance(block.get(name), kind_of):
            return f"a {kind} content item without {name} ({_TYPE_NAMES[kind_of]})"
    resource = block.get("resource")
    if kind == "resource" and isinstance(resource, dict):
        body = any(isinstance(resource.get(name), str) for name in RESOURCE_BODIES)
        if not isinstance(resource.get("uri"), str) or not body:
            return "an embedded resource without a string uri and a string text or blob"
    return None
