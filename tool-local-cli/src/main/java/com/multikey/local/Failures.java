package com.multikey.local;

import com.multikey.clikit.Failure;
import com.multikey.emulator.functions.MissingFunctionJarException;
import com.multikey.emulator.template.TemplateException;

import java.net.BindException;
import java.util.List;
import java.util.Optional;

/**
 * {@link #of} turns what the local stack throws into the {@link Failure} a command stops with (one line: what is wrong,
 * then what to pass or run): {@link LocalMain#USAGE} for what the command line can fix, {@link LocalMain#STACK} when
 * the local stack could not run.
 */
final class Failures {

    private Failures() {
    }

    static Failure of(Throwable thrown) {
        if (thrown instanceof Failure failure) {
            return failure;
        }
        List<Throwable> causes = Failure.causes(thrown);
        Optional<MissingFunctionJarException> jar = causes.stream().filter(MissingFunctionJarException.class::isInstance)
                .map(MissingFunctionJarException.class::cast).findFirst();
        if (jar.isPresent()) {
            return new Failure(LocalMain.STACK, jar.get().getMessage(), thrown);
        }
        if (thrown instanceof IllegalArgumentException || thrown instanceof TemplateException) {
            return new Failure(LocalMain.USAGE, Failure.firstLine(thrown.getMessage()), thrown);
        }
        Optional<Throwable> bind = causes.stream().filter(BindException.class::isInstance).findFirst();
        if (bind.isPresent()) {
            return new Failure(LocalMain.STACK, Failure.firstLine(thrown.getMessage()) + " (" + bind.get().getMessage()
                    + "): a port is in use; pass free ones (start --port, --eventbridge-port, --lambda-port, --sqs-port, --api-port)", thrown);
        }
        String message = thrown.getMessage() == null ? thrown.getClass().getName() : thrown.getClass().getSimpleName() + ": " + thrown.getMessage();
        return new Failure(LocalMain.STACK, Failure.firstLine(message), thrown);
    }
}
