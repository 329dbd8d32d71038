package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code bench --warmup R|auto}: a fixed number of warm-up rounds, or rounds until the JIT has settled (2 to 30). */
class WarmupTest {

    @Test
    void aNumberIsThatManyRounds() {
        Warmup six = parse("6");
        assertTrue(six.another(6, 0.5));
        assertFalse(six.another(7, 0.5));
        assertFalse(parse("0").another(1, 1), "--warmup 0: the measured round is the cold one");
        assertEquals("3/6", six.progress(3));
    }

    @Test
    void autoGoesOnWhileTheJitTakesFivePercentOrMore() {
        Warmup auto = parse("auto");
        assertTrue(auto.another(1, 1) && auto.another(2, 0.0), "the cold round and one more, whatever the JIT did");
        assertTrue(auto.another(3, 0.05), "5 % is not settled");
        assertFalse(auto.another(3, 0.049), "under 5 % is");
        assertTrue(auto.another(30, 0.4));
        assertFalse(auto.another(31, 0.4), "30 rounds at most");
        assertEquals("3/auto", auto.progress(3));
    }

    @Test
    void anythingElseIsRefusedOnTheCommandLine() {
        for (String wrong : new String[] {"-1", "six", "", "1.5", "auto5"}) {
            assertThrows(CommandLine.TypeConversionException.class, () -> new Warmup.Converter().convert(wrong), wrong);
        }
        IronflowCli.Bench bench = new IronflowCli.Bench();
        new CommandLine(bench).parseArgs("--warmup", "auto");
        assertEquals(new Warmup(Warmup.AUTO_MAX, true), bench.warmup);
        new CommandLine(bench).parseArgs();
        assertEquals(new Warmup(5, false), bench.warmup, "the default");
    }

    private static Warmup parse(String text) {
        return new Warmup.Converter().convert(text);
    }
}
