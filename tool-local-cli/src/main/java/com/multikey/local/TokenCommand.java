package com.multikey.local;

import com.multikey.emulator.auth.LocalJwtIssuer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code token}: a token for the local read API started with {@code --api-auth JWT}; prints the token alone. */
@Command(name = "token", mixinStandardHelpOptions = true,
        description = {"Prints a token for the local read API started with --api-auth JWT: signed by the local key, "
                + "for the local issuer and audience, listing the projects the caller may read ('*': every one).",
                "Use it as 'Authorization: Bearer TOKEN', or open the grid page at /#token=TOKEN."},
        footer = {"", "Standard output: the token alone, e.g. token=$(java -jar tool-local-cli/target/local.jar token --projects 'project#1')."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the token was printed", LocalMain.BAD_USAGE, "3:the signing key could not be read or written"})
final class TokenCommand implements Callable<Integer> {

    @CommandLine.ParentCommand
    LocalMain parent;

    @Option(names = "--projects", required = true, split = ",", paramLabel = "PROJECT",
            description = "what the token lets its holder read, comma-separated (required; no spaces, commas, brackets or quotes): "
                    + "projects of the issue grid, INDEX:GROUP for a group of a declared index (a trailing * for every group that "
                    + "starts so, e.g. issue-grid:project#*), or * for everything")
    List<String> projects;

    @Option(names = "--lifetime", defaultValue = "PT1H", paramLabel = "DURATION",
            description = "how long the token is valid, ISO-8601 (negative: already expired) (default ${DEFAULT-VALUE})")
    Duration lifetime;

    @Option(names = "--audience", defaultValue = LocalReadApi.AUDIENCE, description = "the audience, the one the local API accepts (default ${DEFAULT-VALUE})")
    String audience;

    @Option(names = "--issuer", defaultValue = LocalReadApi.ISSUER, description = "the issuer, the one the local API accepts (default ${DEFAULT-VALUE})")
    String issuer;

    @Option(names = "--token-key", paramLabel = "FILE", description = "the signing key (default ~/.multikey/local-token-key.json, made on first use)")
    Path tokenKey;

    @Override
    public Integer call() {
        LocalJwtIssuer key = LocalJwtIssuer.loadOrCreate(tokenKey != null ? tokenKey : LocalReadApi.defaultKeyFile());
        parent.out.println(key.mint(issuer, audience, LocalReadApi.PROJECTS_CLAIM, projects, Instant.now(), lifetime));
        return LocalMain.DONE;
    }
}
