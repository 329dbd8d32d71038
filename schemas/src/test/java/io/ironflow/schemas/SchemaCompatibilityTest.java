package io.ironflow.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.NodeSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every schema must stay BACKWARD compatible (new reader, old data) with every released version of it. */
class SchemaCompatibilityTest {

    private static final Path CURRENT = Path.of("src/main/avro");
    private static final Path RELEASED = Path.of("src/released");

    @TestFactory
    Stream<DynamicTest> currentSchemasReadEveryReleasedVersion() throws IOException {
        Map<String, Schema> current = AvroFiles.parseTopLevel(CURRENT);
        List<DynamicTest> tests = new ArrayList<>();
        for (Path release : AvroFiles.releases(RELEASED)) {
            AvroFiles.parseTopLevel(release).forEach((name, released) -> tests.add(DynamicTest.dynamicTest(
                    name + " reads release " + release.getFileName(), () -> {
                        Schema reader = current.get(name);
                        assertNotNull(reader, name + " was released in " + release + " and must not be removed");
                        var result = SchemaCompatibility.checkReaderWriterCompatibility(reader, released).getResult();
                        assertEquals(SchemaCompatibilityType.COMPATIBLE, result.getCompatibility(),
                                name + " is not BACKWARD compatible with release " + release.getFileName() + ": "
                                        + result.getIncompatibilities());
                    })));
        }
        assertFalse(tests.isEmpty(), "no released schemas found under " + RELEASED.toAbsolutePath());
        return tests.stream();
    }

    @Test
    void everyCurrentSchemaHasBeenReleasedOrIsNew() throws IOException {
        // Guards the guard: the released set must parse and cover the current contracts.
        Map<String, Schema> latest = AvroFiles.parseTopLevel(AvroFiles.releases(RELEASED).get(AvroFiles.releases(RELEASED).size() - 1));
        assertTrue(latest.containsKey(NodeIntent.getClassSchema().getFullName()));
        assertTrue(latest.containsKey(NodeSnapshot.getClassSchema().getFullName()));
    }

    @Test
    void aFieldAddedWithoutDefaultIsCaught() {
        // Proves the check can fail: a reader that needs a field old data lacks cannot read it.
        Schema released = NodeSnapshot.getClassSchema();
        String json = released.toString().replaceFirst("\"fields\":\\[",
                "\"fields\":[{\"name\":\"rack\",\"type\":\"string\"},");
        Schema changed = new Schema.Parser().parse(json);
        assertEquals(SchemaCompatibilityType.INCOMPATIBLE,
                SchemaCompatibility.checkReaderWriterCompatibility(changed, released).getType());
    }

    @Test
    void generatedClassesMatchTheSchemaFiles() throws IOException {
        Map<String, Schema> current = AvroFiles.parseTopLevel(CURRENT);
        for (Schema generated : List.of(IntentResult.getClassSchema(), NodeIntent.getClassSchema())) {
            // Parsing Canonical Form drops docs and the avro.java.string hints the generator adds.
            assertEquals(SchemaNormalization.toParsingForm(current.get(generated.getFullName())),
                    SchemaNormalization.toParsingForm(generated));
        }
    }

    @Test
    void everyTopicHasMoreThanOnePartitionAndOnlyNodeStateIsCompacted() {
        for (Topic topic : Topic.all()) {
            assertTrue(topic.partitions() > 1, topic.topicName());
            assertEquals(topic == Topic.NODE_STATE, topic.compacted(), topic.topicName());
        }
    }

    /** Reads a folder of .avsc files that may refer to each other by name, in any order. */
    static final class AvroFiles {
        static List<Path> releases(Path root) throws IOException {
            try (Stream<Path> dirs = Files.list(root)) {
                return dirs.filter(Files::isDirectory)
                        .sorted((a, b) -> Integer.compare(Integer.parseInt(a.getFileName().toString()),
                                Integer.parseInt(b.getFileName().toString())))
                        .toList();
            }
        }

        static Map<String, Schema> parseTopLevel(Path dir) throws IOException {
            List<Path> pending;
            try (Stream<Path> files = Files.list(dir)) {
                pending = new ArrayList<>(files.filter(p -> p.toString().endsWith(".avsc")).sorted().toList());
            }
            Map<String, Schema> known = new java.util.LinkedHashMap<>();
            Map<String, Schema> topLevel = new java.util.LinkedHashMap<>();
            while (!pending.isEmpty()) {
                int before = pending.size();
                for (var it = pending.iterator(); it.hasNext(); ) {
                    Path file = it.next();
                    Schema.Parser parser = new Schema.Parser();
                    parser.addTypes(known.values());
                    try {
                        Schema schema = parser.parse(file.toFile());
                        topLevel.put(schema.getFullName(), schema);
                        known.putAll(parser.getTypes());
                        it.remove();
                    } catch (org.apache.avro.AvroRuntimeException unresolvedYet) {
                        // refers to a type defined in a file not parsed yet: try again next round
                    }
                }
                if (pending.size() == before) {
                    throw new IllegalStateException("cannot parse " + pending + " in " + dir);
                }
            }
            return topLevel;
        }
    }
}
