package io.ironflow.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Renders the defaults into docs/rbac.md. When the committed file differs it is rewritten and the test fails, so
 * the document in the repository is always the table the code enforces.
 */
class RbacTableTest {

    private static final Path DOC = Path.of("../docs/rbac.md");

    @Test
    void docsRbacIsTheDefaultTable() throws IOException {
        String rendered = RbacTable.markdown(Policy.defaults());
        String committed = Files.exists(DOC) ? Files.readString(DOC) : "";
        if (!committed.equals(rendered)) {
            Files.writeString(DOC, rendered);
        }
        assertEquals(rendered, committed, "docs/rbac.md was stale and has been rewritten: commit it");
    }
}
