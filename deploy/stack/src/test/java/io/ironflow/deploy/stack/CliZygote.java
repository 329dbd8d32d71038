package io.ironflow.deploy.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The real {@code openstack} CLI, started warm: src/test/python/openstack_zygote.py imports openstackclient and its
 * baremetal plugin once under the interpreter of /usr/bin/openstack's {@code #!} line, then forks one child per
 * run, which runs the console script's {@code openstackclient.shell.main()} with its own argv, {@code OS_*}
 * environment, stdin, stdout and stderr and exits with its code. Each run is a fresh process as an operator's is; it
 * only skips the ~1.4 s of imports every {@code openstack} start pays. One zygote per client home, since the client
 * fixes its config and cache directories ({@code XDG_*}) when it is imported; all end with the test JVM (and on EOF,
 * should the JVM die first). A run that outlives its deadline is killed with its children and reported.
 */
final class CliZygote {

    static final Path OPENSTACK = Path.of("/usr/bin/openstack");
    private static final Path SCRIPT = Path.of("src", "test", "python", "openstack_zygote.py").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<Path, CliZygote> BY_HOME = new ConcurrentHashMap<>();
    /** Not JSON, so never one of the zygote's lines. */
    private static final String ENDED = "<ended>";

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> BY_HOME.values().forEach(z -> z.process.destroyForcibly())));
    }

    /** What one run did. */
    record Result(int exitCode, String stdout, String stderr) {}

    private final Path home;
    private final Process process;
    private final OutputStream requests;
    /** The zygote's answer lines, read by a daemon thread; {@link #ENDED} after its last. */
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private int runs;

    private CliZygote(Path home) throws IOException {
        this.home = home;
        ProcessBuilder builder = new ProcessBuilder(interpreter().toString(), SCRIPT.toString());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(k -> k.startsWith("OS_"));
        env.put("XDG_CONFIG_HOME", Files.createDirectories(home.resolve("xdg-config")).toString());
        env.put("XDG_CACHE_HOME", Files.createDirectories(home.resolve("xdg-cache")).toString());
        builder.redirectError(ProcessBuilder.Redirect.appendTo(home.resolve("zygote.log").toFile()));
        process = builder.start();
        requests = process.getOutputStream();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    answers.add(line);
                }
            } catch (IOException e) {
                // the zygote is gone: said below
            }
            answers.add(ENDED);
        }, "cli-zygote-answers");
        reader.setDaemon(true);
        reader.start();
    }

    /** The zygote for this client home, started on first use (again if the last one died). */
    static CliZygote forHome(Path home) {
        return BY_HOME.compute(home.toAbsolutePath(), (h, zygote) -> {
            if (zygote != null && zygote.process.isAlive()) {
                return zygote;
            }
            try {
                return new CliZygote(h);
            } catch (IOException e) {
                throw new IllegalStateException("cannot start " + SCRIPT, e);
            }
        });
    }

    /** Runs {@code openstack args} with {@code env} added to the zygote's (which has no {@code OS_*}). */
    synchronized Result run(List<String> args, Map<String, String> env, String input, Duration deadline)
            throws Exception {
        Path runs = Files.createDirectories(home.resolve("runs"));
        String name = "run-" + ++this.runs;
        Path stdin = Files.writeString(runs.resolve(name + ".stdin"), input == null ? "" : input);
        Path stdout = runs.resolve(name + ".stdout");
        Path stderr = runs.resolve(name + ".stderr");
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("args", args);
        request.put("env", env);
        request.put("stdin", stdin.toString());
        request.put("stdout", stdout.toString());
        request.put("stderr", stderr.toString());
        requests.write((JSON.writeValueAsString(request) + "\n").getBytes(StandardCharsets.UTF_8));
        requests.flush();
        long pid = answer("pid", Duration.ofSeconds(30)).asLong();
        JsonNode exit;
        try {
            exit = answer("exit", deadline);
        } catch (TimeoutException e) {
            ProcessHandle.of(pid).ifPresent(run -> {
                run.descendants().forEach(ProcessHandle::destroyForcibly);
                run.destroyForcibly();
            });
            answer("exit", Duration.ofSeconds(30));
            throw new AssertionError("openstack " + String.join(" ", args) + " did not finish within " + deadline
                    + "; stdout: " + read(stdout) + " stderr: " + read(stderr));
        }
        Result result = new Result(exit.asInt(), read(stdout), read(stderr));
        for (Path file : List.of(stdin, stdout, stderr)) {
            Files.deleteIfExists(file);
        }
        return result;
    }

    /** The zygote's next answer, which must carry {@code field}. */
    private JsonNode answer(String field, Duration deadline) throws Exception {
        String line = answers.poll(deadline.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null) {
            throw new TimeoutException("no " + field + " from " + SCRIPT + " within " + deadline);
        }
        if (line.equals(ENDED)) {
            answers.add(ENDED);
            throw new IllegalStateException(SCRIPT + " ended (exit " + process.waitFor() + "): "
                    + read(home.resolve("zygote.log")));
        }
        JsonNode answer = JSON.readTree(line);
        if (!answer.has(field)) {
            throw new IllegalStateException("expected " + field + " from " + SCRIPT + ", got " + line);
        }
        return answer.get(field);
    }

    /** The interpreter /usr/bin/openstack names on its first line, as running it would use. */
    private static Path interpreter() throws IOException {
        String first = Files.readAllLines(OPENSTACK).get(0);
        if (!first.startsWith("#!")) {
            throw new IllegalStateException(OPENSTACK + " has no #! line: " + first);
        }
        return Path.of(first.substring(2).trim().split("\\s+")[0]);
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }
}
