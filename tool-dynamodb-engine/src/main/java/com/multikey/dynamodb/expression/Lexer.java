package com.multikey.dynamodb.expression;

import java.util.ArrayList;
import java.util.List;

/** Splits an expression into tokens; never fails (a stray character becomes an UNKNOWN token). */
final class Lexer {

    private Lexer() {
    }

    static List<Token> tokenize(String text) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            int start = i;
            Token.Kind kind;
            if (isWordChar(c)) {
                i = wordEnd(text, i);
                String word = text.substring(start, i);
                // Digits alone are a list index; a name may not start with a digit.
                kind = word.chars().allMatch(Character::isDigit) ? Token.Kind.INDEX
                        : Character.isDigit(c) ? Token.Kind.UNKNOWN : Token.Kind.WORD;
            } else if ((c == '#' || c == ':') && i + 1 < text.length() && isWordChar(text.charAt(i + 1))) {
                i = wordEnd(text, i + 1);
                kind = c == '#' ? Token.Kind.NAME_REF : Token.Kind.VALUE_REF;
            } else {
                String two = i + 1 < text.length() ? text.substring(i, i + 2) : "";
                switch (two) {
                    case "<>" -> kind = Token.Kind.NE;
                    case "<=" -> kind = Token.Kind.LE;
                    case ">=" -> kind = Token.Kind.GE;
                    default -> kind = null;
                }
                if (kind != null) {
                    i += 2;
                } else {
                    kind = single(c);
                    i += Character.charCount(text.codePointAt(i));
                }
            }
            tokens.add(new Token(kind, text.substring(start, i), start, i));
        }
        tokens.add(new Token(Token.Kind.EOF, "", text.length(), text.length()));
        return tokens;
    }

    private static Token.Kind single(char c) {
        return switch (c) {
            case '(' -> Token.Kind.LPAREN;
            case ')' -> Token.Kind.RPAREN;
            case '[' -> Token.Kind.LBRACKET;
            case ']' -> Token.Kind.RBRACKET;
            case ',' -> Token.Kind.COMMA;
            case '.' -> Token.Kind.DOT;
            case '+' -> Token.Kind.PLUS;
            case '-' -> Token.Kind.MINUS;
            case '=' -> Token.Kind.EQ;
            case '<' -> Token.Kind.LT;
            case '>' -> Token.Kind.GT;
            default -> Token.Kind.UNKNOWN;
        };
    }

    private static boolean isWordChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    private static int wordEnd(String text, int i) {
        while (i < text.length() && isWordChar(text.charAt(i))) {
            i++;
        }
        return i;
    }
}
