package io.ironflow.conductor.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ironflow.conductor.domain.ProvisionStateMachine.Transition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/states.md is rendered from the transition table, never written by hand. Run with
 * {@code -Dironflow.write-docs=true} to rewrite it after changing the table.
 */
class StatesDocumentTest {

    private static final Path DOCUMENT = Path.of("..", "docs", "states.md");

    @Test
    void docsStatesMdIsTheRenderedTable() throws IOException {
        String rendered = render();
        if (Boolean.getBoolean("ironflow.write-docs")) {
            Files.writeString(DOCUMENT, rendered);
        }
        assertEquals(rendered, Files.readString(DOCUMENT),
                "docs/states.md is stale: run ./mvnw -pl conductor-service test -Dironflow.write-docs=true");
    }

    static String render() {
        StringBuilder doc = new StringBuilder("""
                # Provision states

                Rendered from `ProvisionStateMachine` by `StatesDocumentTest`; do not edit by hand.
                Stable states: %s.

                ```mermaid
                stateDiagram-v2
                """.formatted(Arrays.stream(ProvisionState.values()).filter(ProvisionState::stable)
                .map(s -> "`" + s.wire() + "`").collect(Collectors.joining(", "))));
        doc.append("    [*] --> enroll\n");
        for (Transition t : ProvisionStateMachine.table()) {
            doc.append("    ").append(id(t.from())).append(" --> ").append(id(t.to()))
                    .append(" : ").append(t.event().wire()).append('\n');
        }
        for (ProvisionState state : ProvisionState.values()) {
            if (!state.wire().equals(id(state))) {
                doc.append("    ").append(id(state)).append(" : ").append(state.wire()).append('\n');
            }
        }
        doc.append("```\n\n## Transitions\n\n| from | event | to | why |\n| --- | --- | --- | --- |\n");
        for (Transition t : ProvisionStateMachine.table()) {
            doc.append("| ").append(t.from().wire()).append(" | ").append(t.event().wire()).append(" | ")
                    .append(t.to().wire()).append(" | ").append(t.why()).append(" |\n");
        }
        doc.append("\n## API verbs\n\n`PUT /v1/nodes/{id}/states/provision` with `{\"target\": VERB}`:\n\n"
                + "| verb | event | allowed from |\n| --- | --- | --- |\n");
        for (ProvisionVerb verb : ProvisionVerb.values()) {
            String from = ProvisionStateMachine.table().stream().filter(t -> t.event() == verb.event())
                    .map(t -> t.from().wire()).distinct().collect(Collectors.joining(", "));
            doc.append("| ").append(verb.wire()).append(" | ").append(verb.event().wire()).append(" | ")
                    .append(from).append(" |\n");
        }
        return doc.toString();
    }

    /** Mermaid state ids cannot hold spaces. */
    private static String id(ProvisionState state) {
        return state.wire().replace(' ', '_').replace('-', '_');
    }
}
