package com.multikey.query;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sealed cursors: what one sealer seals opens for the same binding within the lifetime, under the current or a previous
 * key, and nothing else does — one edited character anywhere, a cut, another binding, an expired cursor, an unknown key —
 * and a sealed cursor shows nothing of its content.
 */
class CursorSealerTest {

    private static final Instant T0 = Instant.parse("2026-11-27T08:00:00Z");
    private static final String BINDING = String.join("\u0000", "project#1", "3812", "ASC", "", "false");
    private static final byte[] CONTENT = "{\"part\":\"INDEX\",\"key\":{\"attribId\":{\"S\":\"3812\"},\"sortKey\":{\"S\":\"S2023-05-01\u0001p1311\u0001issue#020e\"}}}"
            .getBytes(StandardCharsets.UTF_8);
    private static final CursorKeys.Key KEY_1 = CursorKeys.Key.of("1", "a".repeat(20) + "0123456789ABCDEFGHIJ");
    private static final CursorKeys.Key KEY_2 = CursorKeys.Key.of("2", "b".repeat(20) + "0123456789ABCDEFGHIJ");
    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=.~%!é";

    private static CursorSealer sealer(CursorKeys keys, Instant now) {
        return new CursorSealer(keys, CursorSealer.DEFAULT_LIFETIME, Clock.fixed(now, ZoneOffset.UTC));
    }

    private static final String CURSOR = sealer(CursorKeys.of(KEY_1), T0).seal(CONTENT, BINDING);

    @Test
    void open_ofWhatItSealed_forTheSameBinding_givesTheContent() {
        assertThat(sealer(CursorKeys.of(KEY_1), T0.plusSeconds(60)).open(CURSOR, BINDING)).isEqualTo(CONTENT);
    }

    @Property(tries = 1000)
    void open_afterOneCharacterIsChangedAtAnyPosition_isRefusedNamingTheCursor(@ForAll("positions") int position,
                                                                               @ForAll("characters") char replacement) {
        // given
        String edited = CURSOR.substring(0, position) + replacement + CURSOR.substring(position + 1);
        if (edited.equals(CURSOR)) {
            return;
        }

        // then
        assertThatThrownBy(() -> sealer(CursorKeys.of(KEY_1), T0).open(edited, BINDING))
                .isInstanceOf(QueryException.class).hasMessage(CursorSealer.REFUSED);
    }

    @Test
    void open_afterAnyCharacterIsChangedToAnyOtherOfTheAlphabet_isRefused() {
        // every position and every base64url character: the exhaustive twin of the property above
        CursorSealer sealer = sealer(CursorKeys.of(KEY_1), T0);
        int refused = 0;
        for (int i = 0; i < CURSOR.length(); i++) {
            for (char c : ALPHABET.toCharArray()) {
                if (c == CURSOR.charAt(i)) {
                    continue;
                }
                String edited = CURSOR.substring(0, i) + c + CURSOR.substring(i + 1);
                assertThatThrownBy(() -> sealer.open(edited, BINDING)).as("%d %c", i, c)
                        .isInstanceOf(QueryException.class).hasMessage(CursorSealer.REFUSED);
                refused++;
            }
        }
        assertThat(refused).isGreaterThan(CURSOR.length() * 60);
    }

    @Provide
    Arbitrary<Integer> positions() {
        return Arbitraries.integers().between(0, CURSOR.length() - 1);
    }

    @Provide
    Arbitrary<Character> characters() {
        return Arbitraries.of(ALPHABET.chars().mapToObj(c -> (char) c).toList());
    }

    @Test
    void open_ofACutCursor_orOneWithSomethingAdded_isRefused() {
        CursorSealer sealer = sealer(CursorKeys.of(KEY_1), T0);
        for (int length = 0; length < CURSOR.length(); length++) {
            String cut = CURSOR.substring(0, length);
            assertThatThrownBy(() -> sealer.open(cut, BINDING)).as("%d", length).hasMessage(CursorSealer.REFUSED);
            String tail = CURSOR.substring(length + 1);
            assertThatThrownBy(() -> sealer.open(tail, BINDING)).as("tail %d", length).hasMessage(CursorSealer.REFUSED);
        }
        for (String added : List.of("A", "AA", "AAAA", "=", "==", " ", "\n")) {
            assertThatThrownBy(() -> sealer.open(CURSOR + added, BINDING)).as(added).hasMessage(CursorSealer.REFUSED);
        }
    }

    @Test
    void open_forAnotherBinding_isRefused() {
        CursorSealer sealer = sealer(CursorKeys.of(KEY_1), T0);
        for (String other : List.of(BINDING.replace("project#1", "project#2"), BINDING.replace("3812", "3813"),
                BINDING.replace("ASC", "DESC"), BINDING.replace("\u0000\u0000", "\u0000Equals[N:1]\u0000"),
                BINDING.replace("false", "true"), "", BINDING + "\u0000")) {
            assertThatThrownBy(() -> sealer.open(CURSOR, other)).as(other).hasMessage(CursorSealer.REFUSED);
        }
    }

    @Test
    void open_forAnotherRequestWhosePartsJoinToTheSameText_isRefused() {
        com.multikey.index.IndexValue.Text a = new com.multikey.index.IndexValue.Text("a");
        com.multikey.index.IndexValue.Text c = new com.multikey.index.IndexValue.Text("c");
        com.multikey.index.IndexValue.Text aEtc = new com.multikey.index.IndexValue.Text("a], lowInclusive=true, high=Text[value=b");
        com.multikey.index.IndexValue.Text bEtc = new com.multikey.index.IndexValue.Text("b], lowInclusive=true, high=Text[value=c");
        List<PageRequest[]> pairs = List.of(
                // a project and a field with a NUL (%00 in a query string) where the binding joins its parts
                new PageRequest[] {PageRequest.first("p\u0000f1", "x", Order.ASC, 25), PageRequest.first("p", "f1\u0000x", Order.ASC, 25)},
                // two filters whose record texts are equal
                new PageRequest[] {PageRequest.first("p", "f", Order.ASC, 25).withFilter(new Filter.Range(aEtc, true, c, false)),
                        PageRequest.first("p", "f", Order.ASC, 25).withFilter(new Filter.Range(a, true, bEtc, false))},
                // two groups of a declared index
                new PageRequest[] {PageRequest.onIndex("by-state", List.of(software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("a\u0000S:b"),
                        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("c")), "", Order.ASC, 25),
                        PageRequest.onIndex("by-state", List.of(software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("a"),
                                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("b\u0000S:c")), "", Order.ASC, 25)});
        CursorSealer sealer = sealer(CursorKeys.of(KEY_1), T0);
        for (PageRequest[] pair : pairs) {
            String cursor = sealer.seal(CONTENT, pair[0].identity());
            assertThatThrownBy(() -> sealer.open(cursor, pair[1].identity())).as("%s", pair[1].identity())
                    .isInstanceOf(QueryException.class).hasMessage(CursorSealer.REFUSED);
        }
    }

    @Test
    void open_isAcceptedUntilTheLifetimeEnds_andRefusedFromThen() {
        Duration lifetime = CursorSealer.DEFAULT_LIFETIME;
        assertThat(sealer(CursorKeys.of(KEY_1), T0.plus(lifetime).minusSeconds(1)).open(CURSOR, BINDING)).isEqualTo(CONTENT);
        assertThatThrownBy(() -> sealer(CursorKeys.of(KEY_1), T0.plus(lifetime)).open(CURSOR, BINDING))
                .isInstanceOf(QueryException.class).hasMessage(CursorSealer.REFUSED);
        assertThatThrownBy(() -> sealer(CursorKeys.of(KEY_1), T0.plus(Duration.ofDays(400))).open(CURSOR, BINDING))
                .hasMessage(CursorSealer.REFUSED);
    }

    @Test
    void open_ofAConfiguredLifetime_refusesOlderCursors() {
        // given: a one-hour lifetime
        Clock later = Clock.fixed(T0.plus(Duration.ofMinutes(61)), ZoneOffset.UTC);

        // then
        assertThatThrownBy(() -> new CursorSealer(CursorKeys.of(KEY_1), Duration.ofHours(1), later).open(CURSOR, BINDING))
                .hasMessage(CursorSealer.REFUSED);
        assertThat(new CursorSealer(CursorKeys.of(KEY_1), Duration.ofHours(2), later).open(CURSOR, BINDING)).isEqualTo(CONTENT);
    }

    @Test
    void open_ofACursorSealedFurtherInTheFutureThanTheClockSkew_isRefused() {
        String early = sealer(CursorKeys.of(KEY_1), T0.plus(CursorSealer.CLOCK_SKEW).plusSeconds(1)).seal(CONTENT, BINDING);
        String withinSkew = sealer(CursorKeys.of(KEY_1), T0.plus(CursorSealer.CLOCK_SKEW)).seal(CONTENT, BINDING);

        assertThatThrownBy(() -> sealer(CursorKeys.of(KEY_1), T0).open(early, BINDING)).hasMessage(CursorSealer.REFUSED);
        assertThat(sealer(CursorKeys.of(KEY_1), T0).open(withinSkew, BINDING)).isEqualTo(CONTENT);
    }

    @Test
    void open_underThePreviousKey_isAcceptedWithinTheWindow_andRefusedAfter() {
        // given: the keys rotated an hour after the cursor was sealed under key 1
        CursorKeys rotated = new CursorKeys(KEY_2, List.of(KEY_1));
        Instant rotation = T0.plus(Duration.ofHours(1));

        // then: accepted until the cursor's lifetime ends, refused from then
        assertThat(sealer(rotated, rotation).open(CURSOR, BINDING)).isEqualTo(CONTENT);
        assertThat(sealer(rotated, T0.plus(CursorSealer.DEFAULT_LIFETIME).minusSeconds(1)).open(CURSOR, BINDING)).isEqualTo(CONTENT);
        assertThatThrownBy(() -> sealer(rotated, T0.plus(CursorSealer.DEFAULT_LIFETIME)).open(CURSOR, BINDING))
                .hasMessage(CursorSealer.REFUSED);
        // and new cursors are sealed under the new key, which the old key alone does not open
        String fresh = sealer(rotated, rotation).seal(CONTENT, BINDING);
        assertThat(Base64.getUrlDecoder().decode(fresh)[2]).isEqualTo((byte) '2');
        assertThatThrownBy(() -> sealer(CursorKeys.of(KEY_1), rotation).open(fresh, BINDING)).hasMessage(CursorSealer.REFUSED);
    }

    @Test
    void open_underAKeyNoLongerListed_orAnotherKeyOfTheSameId_isRefused() {
        assertThatThrownBy(() -> sealer(CursorKeys.of(KEY_2), T0).open(CURSOR, BINDING)).hasMessage(CursorSealer.REFUSED);
        CursorKeys.Key impostor = CursorKeys.Key.of("1", "c".repeat(40));
        assertThatThrownBy(() -> sealer(CursorKeys.of(impostor), T0).open(CURSOR, BINDING)).hasMessage(CursorSealer.REFUSED);
    }

    @Test
    void seal_showsNothingOfTheContent_andTwoSealsOfOneContentDiffer() {
        // given
        byte[] decoded = Base64.getUrlDecoder().decode(CURSOR);
        String hex = HexFormat.of().formatHex(decoded);
        String latin = new String(decoded, StandardCharsets.ISO_8859_1);

        // then: no part of the key's value, num or item id, in any spelling
        for (String part : List.of("3812", "2023-05-01", "p1311", "issue#020e", "020e", "sortKey", "attribId", "INDEX")) {
            assertThat(latin).as(part).doesNotContain(part);
            assertThat(hex).as(part).doesNotContain(HexFormat.of().formatHex(part.getBytes(StandardCharsets.UTF_8)));
            assertThat(CURSOR).as(part).doesNotContain(part);
        }
        assertThat(sealer(CursorKeys.of(KEY_1), T0).seal(CONTENT, BINDING)).isNotEqualTo(CURSOR);
        // the header: version 1, key id "1"; then 12 bytes of nonce, the padded ciphertext and the 16-byte tag
        assertThat(decoded[0]).isEqualTo((byte) 1);
        assertThat(decoded[1]).isEqualTo((byte) 1);
        assertThat((decoded.length - 3 - 12 - 16) % CursorSealer.BLOCK_BYTES).isZero();
    }

    @Test
    void seal_ofContentsOfNearLengths_givesCursorsOfOneLength() {
        CursorSealer sealer = sealer(CursorKeys.of(KEY_1), T0);
        assertThat(sealer.seal(new byte[1], BINDING)).hasSameSizeAs(sealer.seal(new byte[50], BINDING));
    }

    @Test
    void reloading_learnsTheNewKeyFromTheFirstCursorSealedUnderIt_atMostOnceAMinute() {
        // given: a container that loaded key 1 alone, and a source that now holds key 2 (1 previous)
        AtomicReference<CursorKeys> secret = new AtomicReference<>(CursorKeys.of(KEY_1));
        AtomicInteger loads = new AtomicInteger();
        AtomicReference<Instant> now = new AtomicReference<>(T0);
        Clock clock = new Clock() {
            @Override public java.time.ZoneId getZone() { return ZoneOffset.UTC; }
            @Override public Clock withZone(java.time.ZoneId zone) { return this; }
            @Override public Instant instant() { return now.get(); }
        };
        CursorSealer old = CursorSealer.reloading(() -> {
            loads.incrementAndGet();
            return secret.get();
        }, CursorSealer.DEFAULT_LIFETIME, clock);
        assertThat(loads).as("nothing is read before the first cursor").hasValue(0);
        assertThat(Base64.getUrlDecoder().decode(old.seal(CONTENT, BINDING))[2]).isEqualTo((byte) '1');
        secret.set(new CursorKeys(KEY_2, List.of(KEY_1)));
        String underKey2 = sealer(secret.get(), T0).seal(CONTENT, BINDING);

        // when: within a minute of the first load a cursor under key 2 is refused without a load; after it, loaded once
        assertThatThrownBy(() -> old.open(underKey2, BINDING)).hasMessage(CursorSealer.REFUSED);
        assertThat(loads).hasValue(1);
        now.set(T0.plus(CursorSealer.RELOAD_INTERVAL));

        // then
        assertThat(old.open(underKey2, BINDING)).isEqualTo(CONTENT);
        assertThat(old.open(underKey2, BINDING)).isEqualTo(CONTENT);
        assertThat(loads).hasValue(2);
        assertThat(Base64.getUrlDecoder().decode(old.seal(CONTENT, BINDING))[2]).isEqualTo((byte) '2');
    }

    @Test
    void reloading_readsTheKeysAgainWhenTheyAreOlderThanAReloadInterval_soARemovedKeyOpensNothingMore_andTheNewOneSeals() {
        // given: a container that loaded key 1 and keeps being asked for cursors under it alone
        AtomicReference<CursorKeys> secret = new AtomicReference<>(CursorKeys.of(KEY_1));
        AtomicReference<Instant> now = new AtomicReference<>(T0);
        Clock clock = new Clock() {
            @Override public java.time.ZoneId getZone() { return ZoneOffset.UTC; }
            @Override public Clock withZone(java.time.ZoneId zone) { return this; }
            @Override public Instant instant() { return now.get(); }
        };
        CursorSealer warm = CursorSealer.reloading(secret::get, CursorSealer.DEFAULT_LIFETIME, clock);
        String underKey1 = warm.seal(CONTENT, BINDING);

        // when: the secret is rotated to key 2 with key 1 removed (it leaked), and time passes
        secret.set(CursorKeys.of(KEY_2));
        now.set(T0.plus(Duration.ofMinutes(10)));

        // then: as in a container started now, key 1 opens nothing and new cursors are sealed under key 2
        assertThatThrownBy(() -> warm.open(underKey1, BINDING)).hasMessage(CursorSealer.REFUSED);
        String sealedNow = warm.seal(CONTENT, BINDING);
        assertThat(Base64.getUrlDecoder().decode(sealedNow)[2]).isEqualTo((byte) '2');
        assertThat(sealer(secret.get(), now.get()).open(sealedNow, BINDING)).isEqualTo(CONTENT);
    }

    @Test
    void keys_loadOrCreate_byManyAtOnce_givesEachOfThemTheKeyTheFileKeeps(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        int callers = 8;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(callers);
        try {
            for (int round = 0; round < 40; round++) {
                java.nio.file.Path file = dir.resolve("round-" + round).resolve("cursor-keys.json");
                java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(callers);
                List<java.util.concurrent.Future<CursorKeys>> made = new java.util.ArrayList<>();
                for (int i = 0; i < callers; i++) {
                    made.add(pool.submit(() -> {
                        start.await();
                        return CursorKeys.loadOrCreate(file);
                    }));
                }
                CursorKeys kept = CursorKeys.loadOrCreate(file);
                for (java.util.concurrent.Future<CursorKeys> keys : made) {
                    // a cursor sealed by any first user opens in a later run, which reads the file
                    String cursor = CursorSealer.of(keys.get()).seal(CONTENT, BINDING);
                    assertThat(CursorSealer.of(kept).open(cursor, BINDING)).as("round %d", round).isEqualTo(CONTENT);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void keys_parse_ofASecretWithItsIdAndKeySwapped_doesNotShowTheMaterial() {
        String material = "Zq3".repeat(21) + "x";
        assertThatThrownBy(() -> CursorKeys.parse("{\"id\":\"" + material + "\",\"key\":\"1\"}"))
                .isInstanceOf(IllegalArgumentException.class).message().doesNotContain(material.substring(0, 16));
        String shorter = "Wp7".repeat(10) + "xy";
        assertThatThrownBy(() -> CursorKeys.parse("{\"id\":\"" + shorter + "\",\"key\":\"2\"}"))
                .isInstanceOf(IllegalArgumentException.class).message().doesNotContain(shorter.substring(0, 16));
    }

    @Test
    void keys_parse_theSecretsForm_andRefuseBadOnesWithoutShowingMaterial() {
        CursorKeys keys = CursorKeys.parse("{\"id\":\"2\",\"key\":\"" + "k".repeat(64) + "\",\"previous\":[{\"id\":\"1\",\"key\":\""
                + "m".repeat(40) + "\"}]}");
        assertThat(keys.current().id()).isEqualTo("2");
        assertThat(keys.previous()).extracting(CursorKeys.Key::id).containsExactly("1");
        assertThat(keys.toString()).doesNotContain("kkkk").doesNotContain("mmmm");
        assertThat(CursorKeys.parse("{\"id\":\"k1\",\"key\":\"" + "x".repeat(32) + "\"}").previous()).isEmpty();

        for (String bad : List.of("", "[]", "{\"id\":\"1\"}", "{\"id\":\"1\",\"key\":\"short-secret-value\"}",
                "{\"id\":\"a b\",\"key\":\"" + "s".repeat(40) + "\"}",
                "{\"id\":\"1\",\"key\":\"" + "s".repeat(40) + "\",\"previous\":[{\"id\":\"1\",\"key\":\"" + "t".repeat(40) + "\"}]}",
                "{\"id\":\"1\",\"key\":\"" + "s".repeat(40) + "\",\"previous\":{}}")) {
            assertThatThrownBy(() -> CursorKeys.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .message().doesNotContain("short-secret-value").doesNotContain("ssss").doesNotContain("tttt");
        }
    }

    @Test
    void keys_loadOrCreate_makesAFileReadableByItsOwnerOnce_andReadsItAfter(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = dir.resolve("state").resolve("cursor-keys.json");

        CursorKeys made = CursorKeys.loadOrCreate(file);
        CursorKeys read = CursorKeys.loadOrCreate(file);

        assertThat(java.nio.file.Files.getPosixFilePermissions(file))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        String cursor = CursorSealer.of(made).seal(CONTENT, BINDING);
        assertThat(CursorSealer.of(read).open(cursor, BINDING)).isEqualTo(CONTENT);
        assertThat(java.nio.file.Files.list(file.getParent()).toList()).containsExactly(file);
    }

    @Property(tries = 50)
    void sealThenOpen_givesBackAnyContent(@ForAll @IntRange(max = 2000) int length) {
        byte[] content = new byte[length];
        new java.util.Random(length).nextBytes(content);
        CursorSealer sealer = sealer(CursorKeys.of(KEY_1), T0);
        assertThat(sealer.open(sealer.seal(content, BINDING), BINDING)).isEqualTo(content);
    }
}
