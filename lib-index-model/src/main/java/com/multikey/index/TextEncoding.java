package com.multikey.index;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A text in a sort key: readable as it is, with the characters U+0000, U+0001 and U+0002 as the two-character escapes
 * U+0002 U+0002, U+0002 U+0003 and U+0002 U+0004, which keep their order, sort above the separator and below every
 * unescaped character; so an escaped text never holds the separator or U+0000, and a text sorts below its extensions.
 *
 * <p>A string value is {@code S} and its escaped text, within a fixed budget of bytes. A longer one is cut at a character
 * boundary and ends with U+0002 {@code ~} and {@value #DIGEST_HEX_CHARS} hex digits of the SHA-256 of the whole text:
 * order is kept between texts that differ before the cut, and distinct texts keep distinct encodings.
 */
final class TextEncoding {

    static final char ESCAPE = '\u0002';
    static final String TRUNCATION_MARK = "\u0002~";
    static final int DIGEST_HEX_CHARS = 32;

    private TextEncoding() {
    }

    /** A string value in at most {@code maxBytes} UTF-8 bytes: whole when it fits, else cut and ended by its digest. */
    static String encode(String text, int maxBytes) {
        String whole = appendEscaped(new StringBuilder(text.length() + 1).append('S'), text).toString();
        if (utf8Length(whole) <= maxBytes) {
            return whole;
        }
        return prefix(text, maxBytes) + TRUNCATION_MARK + digest(text);
    }

    /**
     * What every string value of {@code valueBytes} starting with {@code text} starts with: the tag and the escaped text,
     * up to where such a value is cut.
     */
    static String prefix(String text, int valueBytes) {
        int cutAt = valueBytes - TRUNCATION_MARK.length() - DIGEST_HEX_CHARS;
        StringBuilder out = new StringBuilder(text.length() + 1).append('S');
        int bytes = 1;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            i += Character.charCount(codePoint);
            int added = codePoint <= ESCAPE ? 2 : utf8Length(codePoint);
            if (bytes + added > cutAt) {
                break;
            }
            appendEscaped(out, codePoint);
            bytes += added;
        }
        return out.toString();
    }

    /** The text escaped, whole. */
    static String escape(String text) {
        return appendEscaped(new StringBuilder(text.length()), text).toString();
    }

    /** Appends the text escaped, whole. */
    static StringBuilder appendEscaped(StringBuilder out, String text) {
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            i += Character.charCount(codePoint);
            appendEscaped(out, codePoint);
        }
        return out;
    }

    private static void appendEscaped(StringBuilder out, int codePoint) {
        if (codePoint <= ESCAPE) {
            out.append(ESCAPE).append((char) (codePoint + 2));
        } else {
            out.appendCodePoint(codePoint);
        }
    }

    private static String digest(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, DIGEST_HEX_CHARS / 2);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /** The UTF-8 bytes of a text, a lone surrogate counted as the three bytes of its code point. */
    static int utf8Length(String text) {
        int bytes = 0;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            bytes += utf8Length(codePoint);
            i += Character.charCount(codePoint);
        }
        return bytes;
    }

    private static int utf8Length(int codePoint) {
        if (codePoint < 0x80) {
            return 1;
        }
        if (codePoint < 0x800) {
            return 2;
        }
        return codePoint < 0x10000 ? 3 : 4;
    }
}
