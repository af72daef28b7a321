package com.multikey.index.definition;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class KeySchemaTest {

    private static final KeySchema PK_SK = new KeySchema(new KeySchema.KeyAttribute("pk", KeySchema.KeyType.S),
            Optional.of(new KeySchema.KeyAttribute("sk", KeySchema.KeyType.N)), KeySchema.DEFAULT_MAX_ITEM_KEY_BYTES);

    @Test
    void isKeyAttribute_whenTheTopLevelNameOfAKeyAttribute() {
        assertThat(PK_SK.isKeyAttribute(AttributePath.parse("pk", "test"))).isTrue();
        assertThat(PK_SK.isKeyAttribute(AttributePath.parse("sk", "test"))).isTrue();
        assertThat(PK_SK.isKeyAttribute(AttributePath.parse("title", "test"))).isFalse();
        assertThat(PK_SK.isKeyAttribute(AttributePath.parse("pk.x", "test"))).as("a path inside it").isFalse();
    }
}
