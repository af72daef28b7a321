package com.multikey.local;

import com.multikey.emulator.functions.MissingFunctionJarException;
import com.multikey.emulator.template.TemplateException;

import java.net.BindException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Why a command stopped, as the one line it prints (what is wrong, then what to pass or run) and its exit code:
 * {@link LocalMain#USAGE} for what the command line can fix, {@link LocalMain#STACK} when the local stack could not run.
 */
final class Failure extends RuntimeException {

    private final int exitCode;

    Failure(int exitCode, String message) {
        this(exitCode, message, null);
    }

    Failure(int exitCode, String message, Throwable cause) {
        super(message, cause, false, false);
        this.exitCode = exitCode;
    }

    static Failure usage(String message) {
        return new Failure(LocalMain.USAGE, message);
    }

    int exitCode() {
        return exitCode;
    }

    static Failure of(Throwable thrown) {
        if (thrown instanceof Failure failure) {
            return failure;
        }
        List<Throwable> causes = causes(thrown);
        Optional<MissingFunctionJarException> jar = causes.stream().filter(MissingFunctionJarException.class::isInstance)
                .map(MissingFunctionJarException.class::cast).findFirst();
        if (jar.isPresent()) {
            return new Failure(LocalMain.STACK, jar.get().getMessage(), thrown);
        }
        if (thrown instanceof IllegalArgumentException || thrown instanceof TemplateException) {
            return new Failure(LocalMain.USAGE, firstLine(thrown.getMessage()), thrown);
        }
        Optional<Throwable> bind = causes.stream().filter(BindException.class::isInstance).findFirst();
        if (bind.isPresent()) {
            return new Failure(LocalMain.STACK, firstLine(thrown.getMessage()) + " (" + bind.get().getMessage()
                    + "): a port is in use; pass free ones (start --port, --eventbridge-port, --lambda-port, --sqs-port, --api-port)", thrown);
        }
        String message = thrown.getMessage() == null ? thrown.getClass().getName() : thrown.getClass().getSimpleName() + ": " + thrown.getMessage();
        return new Failure(LocalMain.STACK, firstLine(message), thrown);
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }

    private static List<Throwable> causes(Throwable thrown) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = thrown; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }
}
