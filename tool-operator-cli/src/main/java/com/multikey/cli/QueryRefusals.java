package com.multikey.cli;

import com.multikey.clikit.Failure;
import com.multikey.query.FilterParameters;
import com.multikey.query.InvalidPredicateException;
import com.multikey.query.PageParameters;

import java.util.List;
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

    /** A page parameter's refusal of the query library, named by its option ({@code beginsWith} as {@code --begins-with}). */
    static Failure option(FilterParameters.InvalidParameterException e) {
        return Failure.usage(option(e.kind()) + ": " + e.detail());
    }

    /** The option of {@code query} that gives a page parameter. */
    static String option(PageParameters.Parameter parameter) {
        return switch (parameter) {
            case ORDER -> "--desc";
            case PAGE_SIZE -> "--page-size";
            case CURSOR -> "--cursor";
            case MISSING -> "--missing";
            case TYPE -> "--type";
            case EQUALS -> "--equals";
            case BEGINS_WITH -> "--begins-with";
            case LT -> "--lt";
            case LE -> "--le";
            case GT -> "--gt";
            case GE -> "--ge";
            case WHERE -> "--where";
            case BUDGET -> "--budget";
            case EXPLAIN -> "--explain";
        };
    }
}
