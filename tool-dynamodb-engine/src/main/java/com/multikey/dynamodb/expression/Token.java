package com.multikey.dynamodb.expression;

/** One lexical token of an expression, with its place in the text (for "near" in syntax errors). */
record Token(Kind kind, String text, int start, int end) {

    enum Kind {
        /** A bare word: an attribute name, a keyword (AND, SET...) or a function name. */
        WORD,
        /** {@code #name}: an expression attribute name. */
        NAME_REF,
        /** {@code :value}: an expression attribute value. */
        VALUE_REF,
        /** Digits: a list index. */
        INDEX,
        LPAREN, RPAREN, LBRACKET, RBRACKET, COMMA, DOT, PLUS, MINUS,
        EQ, NE, LT, LE, GT, GE,
        /** A character no token starts with; the parser reports it as a syntax error. */
        UNKNOWN,
        EOF
    }

    boolean isWord(String keyword) {
        return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
    }

    /** The token as DynamoDB's messages show it. */
    String shown() {
        return kind == Kind.EOF ? "<EOF>" : text;
    }
}
