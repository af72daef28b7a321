package com.multikey.cli;

import com.multikey.clikit.Failure;
import com.multikey.query.FilterParameters;
import com.multikey.query.InvalidPredicateException;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The query library's refusals of {@code query}'s options, each as a usage failure naming the option at fault. */
final class QueryRefusals {

    private static final Pattern OTHER_PREDICATE = Pattern.compile("^with predicate (\\d+) ");

    private QueryRefusals() {
    }

    /**
     * A predicate's refusal as {@code --where[i] 'text': what is wrong}, the {@code --where} options counted from 0 as
     * the plan names them ({@code drive(where[0]: ...)}); the other predicate of an inverted range named the same way.
     */
    static Failure where(InvalidPredicateException e, List<String> where) {
        String message = e.getMessage();
        String prefix = "predicate " + e.position() + " ";
        String what = message.startsWith(prefix) ? message.substring(prefix.length()) : message;
        Matcher other = OTHER_PREDICATE.matcher(what);
        if (other.find()) {
            what = "with " + option(Integer.parseInt(other.group(1)), where) + " " + what.substring(other.end());
        }
        return Failure.usage(option(e.position(), where) + ": " + what);
    }

    private static String option(int position, List<String> where) {
        return "--where[" + position + "]" + (position < where.size() ? " '" + where.get(position) + "'" : "");
    }

    /** A filter or budget refusal of the query library, named by its option ({@code lessThan} as {@code --less-than}). */
    static Failure option(FilterParameters.InvalidParameterException e) {
        String option = "--" + e.parameter().replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
        return Failure.usage(option + e.getMessage().substring(e.parameter().length()));
    }
}
