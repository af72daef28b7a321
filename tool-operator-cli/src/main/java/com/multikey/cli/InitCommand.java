package com.multikey.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.clikit.Failure;
import com.multikey.clikit.Output;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code init --table NAME}: proposes a definitions file for a table of the user's own from its description and a
 * bounded, rate-limited, read-only sample of its items, says whether its stream can feed the indexer, and lists the stream's
 * readers (Lambda's event source mappings) with the stack's mode that keeps each shard within two.
 */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = "Proposes an index definitions file for your table: its key schema, the entity types of its key prefixes "
                + "and commented-out candidate indexes, from a bounded read-only sample (it never writes to the table).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the file was written, the table's stream carries both images and a mode of the stack fits beside its readers",
                "1:the file was written, and the table's stream must change first (no stream, or not NEW_AND_OLD_IMAGES, or two readers "
                        + "already, so that any mode of the stack makes a third): the output says how",
                OperatorCli.BAD_USAGE + "; --out exists without --force", OperatorCli.SERVICE_FAILED})
final class InitCommand implements Callable<Integer>, Failures.Located {

    static final int DEFAULT_SAMPLE = 1000;

    @CommandLine.ParentCommand
    OperatorCli parent;
    @CommandLine.Mixin
    TableSource source = new TableSource();
    @CommandLine.Mixin
    Output output = new Output();
    @Option(names = "--table", required = true, description = "the table to read")
    String table;
    @Option(names = "--sample", defaultValue = "" + DEFAULT_SAMPLE, description = "items to read at most (default ${DEFAULT-VALUE})")
    int sample;
    @Option(names = "--page-size", defaultValue = "100", description = "items per Scan call (its Limit) (default ${DEFAULT-VALUE})")
    int pageSize;
    @Option(names = "--read-rate", defaultValue = "25", description = "read capacity units per second at most (default ${DEFAULT-VALUE})")
    double readRate;
    @Option(names = "--out", description = "the file to write (default: <table>.index-definitions.yaml)")
    Path out;
    @Option(names = "--force", description = "replace --out when it exists")
    boolean force;

    @Override
    public Failures.Context context() {
        return source.context(parent.environment, "--table", table);
    }

    @Override
    public Integer call() throws InterruptedException {
        if (sample < 1 || pageSize < 1 || readRate <= 0) {
            throw Failure.usage("--sample, --page-size and --read-rate must be positive");
        }
        Path file = out != null ? out : Path.of(table + ".index-definitions.yaml");
        if (Files.exists(file) && !force) {
            throw Failure.usage(file + " exists: pass --force to replace it, or --out another file");
        }
        TableSampler.Sample read;
        try (DynamoDbClient client = source.client(parent.environment)) {
            read = new TableSampler(client, pageSize, readRate, TableSampler.Pause.SLEEP).sample(table, sample);
        }
        DefinitionsProposal proposal = DefinitionsProposal.of(read.table(), read.items());
        StreamReadiness stream = StreamReadiness.of(read.table());
        StreamReaders readers = source.readers(parent.environment, read.table());
        ProposalYaml.Source from = new ProposalYaml.Source(table, source.where(parent.environment), read.items().size(),
                read.table().itemCount(), read.whole(), stream, readers);
        try {
            Files.writeString(file, ProposalYaml.render(proposal, from), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw Failure.usage("cannot write " + file + " (" + e.getClass().getSimpleName() + "): pass --out a file in a writable directory");
        }
        int exit = stream.ready() && readers.fits() ? OperatorCli.DONE : OperatorCli.FOUND;
        if (output.json()) {
            ObjectNode document = document(file, read, proposal, stream);
            document.set("streamReaders", readers.document());
            Output.print(document, parent.out);
        } else {
            print(parent.out, file, read, proposal, stream, readers);
        }
        return exit;
    }

    private ObjectNode document(Path file, TableSampler.Sample read, DefinitionsProposal proposal, StreamReadiness stream) {
        ObjectNode document = Output.object().put("table", table).put("file", file.toString()).put("sampled", read.items().size())
                .put("wholeTable", read.whole()).put("pages", read.pages()).put("readUnits", read.readUnits());
        document.put("itemCount", read.table().itemCount());
        document.putObject("stream").put("viewType", stream.viewType()).put("ready", stream.ready())
                .put("change", stream.ready() ? null : stream.change(table));
        ArrayNode types = document.putArray("entityTypes");
        for (EntityTypeFinder.EntityType type : proposal.types().types()) {
            ObjectNode entry = types.addObject().put("name", type.name()).put("items", type.items());
            ArrayNode when = entry.putArray("when");
            type.when().forEach(c -> when.addObject().put("attribute", c.attribute()).put("beginsWith", c.prefix()));
        }
        document.put("untyped", proposal.types().untyped());
        ArrayNode candidates = document.putArray("candidates");
        for (DefinitionsProposal.Candidate candidate : proposal.candidates()) {
            ObjectNode entry = candidates.addObject().put("name", candidate.name())
                    .put("entityType", candidate.entityType() == null ? null : candidate.entityType().name())
                    .put("group", candidate.group());
            entry.putObject("values").put(candidate.values(), candidate.stats().name());
            entry.put("items", candidate.stats().items()).put("ofItems", candidate.typeItems())
                    .put("distinctValues", candidate.stats().distinctValues()).put("distinctCapped", candidate.stats().capped())
                    .put("entryNames", candidate.stats().entryNames().size());
        }
        return document;
    }

    private void print(PrintStream printed, Path file, TableSampler.Sample read, DefinitionsProposal proposal, StreamReadiness stream,
                       StreamReaders readers) {
        printed.printf("wrote %s: %d items read (%s), %d entity types, %d candidate indexes (commented out)%n", file, read.items().size(),
                read.whole() ? "the whole table" : "a sample", proposal.types().types().size(), proposal.candidates().size());
        for (EntityTypeFinder.EntityType type : proposal.types().types()) {
            printed.printf("  %-16s %-40s %d items%n", type.name(), String.join(" and ", type.when().stream()
                    .map(c -> c.attribute() + " begins with " + c.prefix()).toList()), type.items());
        }
        if (proposal.types().untyped() > 0) {
            printed.printf("  %-16s %-40s %d items%n", "(no type)", "", proposal.types().untyped());
        }
        printed.println(stream.ready() ? "stream: " + StreamReadiness.BOTH_IMAGES + " (ready for the indexer)"
                : "stream: not ready: " + stream.change(table));
        readers.print(printed);
        printed.println("next: review " + file + ", then see the cost and native alternatives: java -jar tool-operator-cli/target/operator-cli.jar "
                + "plan --definitions " + file + " --table " + table);
    }

}
