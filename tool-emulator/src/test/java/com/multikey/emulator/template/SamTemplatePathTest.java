package com.multikey.emulator.template;

import com.multikey.emulator.functions.DeployableJar;
import com.multikey.emulator.functions.MissingFunctionJarException;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** A template named by a bare file name (local.jar --template my-template.yaml) is read from the working directory. */
class SamTemplatePathTest {

    @Test
    void load_whenABareFileName_findsTheFunctionJarsBesideIt() throws Exception {
        // given: a copy of the repository's template in the working directory, named by its file name alone
        Path bare = Path.of("bare-name-template-" + ProcessHandle.current().pid() + ".yaml");
        Files.copy(SamTemplate.findUp("template.yaml"), bare);
        try {
            // when
            SamTemplate template = SamTemplate.load(bare);
            Throwable thrown = catchThrowable(() -> DeployableJar.of(template, "RouterFunction").close());

            // then: the jar is looked for beside the template (and, in this module's tests, not built)
            assertThat(thrown).isInstanceOf(MissingFunctionJarException.class)
                    .hasMessageContaining(Path.of("").toAbsolutePath().resolve("router/target/router.jar").toString());
            assertThat(template.path()).isEqualTo(bare.toAbsolutePath());
        } finally {
            Files.delete(bare);
        }
    }
}
