package com.multikey.benchmarks;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.functions.DeployableJar;
import com.multikey.emulator.template.SamTemplate;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cold start of each function's deployable jar on a plain JVM: for every run a fresh JVM
 * ({@code java -cp <function jar>:<the Lambda runtime's libraries>}, {@link ColdStartProbe}) with the
 * function's environment from template.yaml, its endpoints pointed at the local stack (the DynamoDB engine, the
 * PutEvents and Lambda API endpoints), is timed from process start until it has answered a sample event
 * from {@code sam/events}. Then the same with the priming hook run first, to show what priming moves out
 * of the first batch inside one JVM — not what a SnapStart restore costs, which only Lambda can measure.
 */
final class ColdStart {

    /** Function, and the sample event it answers. */
    private static final Map<String, String> SAMPLES = new LinkedHashMap<>();

    static {
        SAMPLES.put("StreamIndexerFunction", "issue-insert.json");
        SAMPLES.put("RouterFunction", "issue-insert.json");
        SAMPLES.put("DeleteLayerFunction", "layer-expired-event.json");
        SAMPLES.put("QueryFunction", "query-grid-page.json");
    }

    private static final Pattern RESULT = Pattern.compile(Pattern.quote(ColdStartProbe.RESULT)
            + " init=([0-9.]+) prime=([0-9.]+) firstBatch=([0-9.]+) answer=(.*)");

    private ColdStart() {
    }

    /** One run: wall time from process start to the answer, and the probe's own phases (ms). */
    record Run(double wall, double init, double prime, double firstBatch, String answer) {
    }

    static void run(PrintStream out, int runs) throws Exception {
        SamTemplate template = SamTemplate.ofRepository();
        Path events = SamTemplate.findUp("sam").resolve("events");
        String java = ProcessHandle.current().info().command().orElse("java");
        String runtimeLibraries = String.join(File.pathSeparator, location(ColdStartProbe.class), location(Context.class),
                location(LambdaEventSerializers.class), location(com.multikey.emulator.functions.LocalContext.class));
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        TemplateRuntime started;
        try {
            // the stack's start-up lines are not the benchmark's
            started = new TemplateRuntime(template, 0, line -> { });
        } finally {
            System.setOut(console);
        }
        out.printf("(A) cold start: process start -> first batch answered, fresh JVM per run (%s), median of %d runs%n",
                Runtime.version(), runs);
        out.printf("%-30s %-7s %10s %10s %10s %10s %10s %10s%n", "function", "jar MB", "total", "JVM boot", "init",
                "priming", "1st batch", "min-max");
        try (TemplateRuntime stack = started) {
            for (Map.Entry<String, String> sample : SAMPLES.entrySet()) {
                String function = sample.getKey();
                Path jar;
                String handler;
                long bytes;
                boolean primes;
                try (DeployableJar deployable = DeployableJar.of(template, function)) {
                    jar = deployable.path();
                    handler = deployable.handlerClassName();
                    bytes = deployable.sizeBytes();
                    // only the SnapStart functions have a priming hook
                    primes = Arrays.stream(deployable.handlerClass().getDeclaredFields()).anyMatch(f -> f.getName().equals("PRIMING"));
                }
                String answer = "";
                for (String mode : primes ? List.of("plain", "primed") : List.of("plain")) {
                    List<Run> results = new ArrayList<>();
                    for (int i = 0; i < runs; i++) {
                        results.add(once(java, jar + File.pathSeparator + runtimeLibraries, handler,
                                events.resolve(sample.getValue()), mode, stack.environment(function)));
                    }
                    out.printf(Locale.ROOT, "%-30s %-7.1f %7.0f ms %7.0f ms %7.0f ms %7.0f ms %7.0f ms %10s%n",
                            function + ("primed".equals(mode) ? " (primed)" : ""), bytes / 1e6,
                            median(results, Run::wall), median(results, r -> r.wall() - r.init() - r.prime() - r.firstBatch()),
                            median(results, Run::init), median(results, Run::prime), median(results, Run::firstBatch),
                            String.format(Locale.ROOT, "%.0f-%.0f", min(results), max(results)));
                    answer = results.getLast().answer();
                }
                out.println("  answer: " + abbreviated(answer));
            }
        }
        out.println("total = JVM boot + init (handler class loaded, handler built) + priming + 1st batch (event read as the"
                + " runtime reads it, handled, answered); JVM boot is the rest of the wall time.");
        out.println("(primed): the SnapStart hook ran in the same JVM before the batch: its '1st batch' is the first batch"
                + " after priming; a SnapStart restore adds its own restore time, measurable only on Lambda.");
    }

    private static Run once(String java, String classPath, String handler, Path event, String mode, Map<String, String> env)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", classPath, ColdStartProbe.class.getName(), handler,
                event.toString(), mode).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().clear();
        builder.environment().putAll(env);
        long started = System.nanoTime();
        Process process = builder.start();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                Matcher matcher = RESULT.matcher(line);
                if (matcher.matches()) {
                    double wall = (System.nanoTime() - started) / 1e6;
                    process.waitFor(30, TimeUnit.SECONDS);
                    return new Run(wall, Double.parseDouble(matcher.group(1)), Double.parseDouble(matcher.group(2)),
                            Double.parseDouble(matcher.group(3)), matcher.group(4));
                }
            }
        } finally {
            process.destroyForcibly();
        }
        throw new IllegalStateException(handler + " (" + mode + ") exited " + process.waitFor() + " without answering");
    }

    private static double median(List<Run> runs, java.util.function.ToDoubleFunction<Run> value) {
        double[] values = runs.stream().mapToDouble(value).sorted().toArray();
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }

    private static double min(List<Run> runs) {
        return runs.stream().mapToDouble(Run::wall).min().orElseThrow();
    }

    private static double max(List<Run> runs) {
        return runs.stream().mapToDouble(Run::wall).max().orElseThrow();
    }

    private static String abbreviated(String text) {
        return text.length() <= 160 ? text : text.substring(0, 157) + "...";
    }

    private static String location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
