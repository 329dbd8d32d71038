package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./ironflow bench --profile}'s profiler: the agent loads into a running JVM that was started without any
 * flag, its samples name the method that burns the CPU, and the layers put kernel, collector and compiler time
 * where it belongs rather than on the Java frame above it.
 */
class ProfilerTest {

    @TempDir
    Path dir;

    @Test
    void aRunningJvmIsProfiledWithoutAFlagAndItsBusyMethodIsTheHottest() throws Exception {
        Path classes = Path.of(Busy.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process busy = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                classes.toString(), Busy.class.getName()).redirectErrorStream(true).start();
        try {
            assertEquals("spinning", new String(busy.getInputStream().readNBytes(8)));
            Path agent = Profiler.agent(dir);
            assertNotNull(agent, "the agent comes with the launcher's class path");
            assertTrue(Profiler.sample(busy.pid(), agent));
            TimeUnit.MILLISECONDS.sleep(1500); // the window the profile covers
            Path stacks = dir.resolve("busy.collapsed");
            assertTrue(Profiler.load(busy.pid(), agent, "stop,collapsed,file=" + stacks, true));
            String summary = Profiler.summarise("busy", stacks);
            assertTrue(summary.contains(Busy.class.getName() + ".spin"), summary);
            long samples = Long.parseLong(summary.replaceAll("(?s).*busy: (\\d+) CPU samples.*", "$1"));
            assertTrue(samples > 100, "samples every millisecond or few of CPU: " + summary);
        } finally {
            busy.destroyForcibly().waitFor();
        }
    }

    @Test
    void kernelCollectorAndCompilerTimeAreLayersOfTheirOwn() throws Exception {
        assertEquals("kernel", Profiler.layer(List.of("java/lang/Thread.run", "io/netty/channel/socket/nio/NioSocketChannel.doWrite",
                "sun/nio/ch/SocketDispatcher.write0", "__GI___libc_write", "tcp_sendmsg_[k]")));
        assertEquals("gc", Profiler.layer(List.of("clone3", "Thread::call_run", "VMThread::run", "VM_Operation::evaluate",
                "SerialHeap::satisfy_failed_allocation")));
        assertEquals("jit", Profiler.layer(List.of("clone3", "CompileBroker::compiler_thread_loop", "C2Compiler::compile_method")));
        assertEquals("hibernate", Profiler.layer(List.of("java/lang/Thread.run", "io/ironflow/conductor/intents/IntentProcessor.process",
                "org/hibernate/reactive/session/impl/ReactiveSessionImpl.reactiveFlush", "java/util/HashMap.get")));
        assertEquals("gc", Profiler.layer(List.of("clone3", "Thread::call_run", "WorkerThread::run", "G1EvacuateRegionsTask::work")));
        assertEquals("jdk", Profiler.layer(List.of("java/lang/Thread.run", "java/util/HashMap.get")));
        assertEquals("kafka client", Profiler.layer(List.of("java/lang/Thread.run", "org/apache/kafka/Foo.bar",
                "OptoRuntime::new_array_C", "MemAllocator::allocate", "SerialHeap::mem_allocate_work")),
                "an allocation's slow path counts for its caller, not for the collector");
        assertEquals("jvm", Profiler.layer(List.of("clone3", "Thread::call_run", "WatcherThread::run")));
        assertEquals("io.netty.channel.socket.nio.NioSocketChannel.doWrite", Profiler.hottest(List.of("java/lang/Thread.run",
                "io/netty/channel/socket/nio/NioSocketChannel.doWrite", "__GI___libc_write", "tcp_sendmsg_[k]")));
    }

    @Test
    void theSummaryAddsUpEveryLineAndSkipsOneCutShort() throws Exception {
        Path stacks = dir.resolve("x.collapsed");
        Files.writeString(stacks, """
                java/lang/Thread.run;org/hibernate/Foo.bar 30
                java/lang/Thread.run;io/netty/Channel.write;tcp_sendmsg_[k] 50
                clone3;VM_Operation::evaluate;SerialHeap::collect 20
                java/lang/Thread.run;io/netty/Channel.wr
                """);
        String summary = Profiler.summarise("x", stacks);
        assertTrue(summary.contains("x: 100 CPU samples"), summary);
        assertTrue(summary.contains("kernel 50%") && summary.contains("hibernate 30%") && summary.contains("gc 20%"), summary);
        assertTrue(summary.contains("50.0%  io.netty.Channel.write"), summary);
    }

    /** Burns CPU in one method until killed; says so once it started. */
    static final class Busy {

        public static void main(String[] args) {
            System.out.print("spinning");
            System.out.flush();
            long sum = 0;
            while (sum != -1) {
                sum += spin(sum);
            }
        }

        static long spin(long seed) {
            long x = seed;
            for (int i = 0; i < 1_000_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            return x & 1;
        }
    }
}
