package com.multikey.testkit;

import com.fasterxml.jackson.databind.JsonNode;

/** A node of an OpenAPI document and its JSON pointer, which problems name it by. */
record DocumentNode(JsonNode node, String pointer) {

    /** The document's root. */
    static DocumentNode root(JsonNode document) {
        return new DocumentNode(document, "");
    }

    DocumentNode child(String name) {
        return new DocumentNode(node.path(name), pointer + "/" + name.replace("~", "~0").replace("/", "~1"));
    }

    String where() {
        return "#" + pointer;
    }
}
