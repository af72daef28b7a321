package com.multikey.query;

/**
 * The one parser of the whole numbers of a count request ({@code top}, {@code budget}), the read API's facets routes and
 * the CLI's {@code facets} alike: ASCII digits alone, as a page's whole numbers ({@link PageParameters}), so no sign, no
 * other script's digits, no hexadecimal.
 */
public final class CountParameters {

    private CountParameters() {
    }

    /**
     * A whole number from 1 to {@code max}.
     *
     * @throws InvalidCountException naming the parameter: not ASCII digits alone, or out of bounds
     */
    public static int wholeNumber(String parameter, String text, int max) {
        if (!text.matches("[0-9]{1,9}")) {
            throw new InvalidCountException(parameter, "a whole number from 1 to " + max + ", got '" + text + "'");
        }
        int value = Integer.parseInt(text);
        if (value < 1 || value > max) {
            throw new InvalidCountException(parameter, "from 1 to " + max + ", got " + value);
        }
        return value;
    }

    /**
     * A read budget of a count: a whole number from 2 (an index item and its item) to {@code max}.
     *
     * @throws InvalidCountException naming {@code budget}
     */
    public static int budget(String text, int max) {
        int budget = wholeNumber("budget", text, max);
        if (budget == 1) {
            throw new InvalidCountException("budget", "at least 2 items (an index item and its item), got 1");
        }
        return budget;
    }
}
