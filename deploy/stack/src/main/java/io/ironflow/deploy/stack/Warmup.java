package io.ironflow.deploy.stack;

import picocli.CommandLine;

/**
 * How long {@code ./ironflow bench} warms the stack up before its measured round: a fixed number of rounds
 * ({@code --warmup 6}), or ({@code --warmup auto}) until the JVMs have compiled their hot paths, that is until a
 * round in which their JIT compiler threads took less than {@value #SETTLED_PERCENT} % of the stack's CPU (at
 * least {@value #AUTO_MIN} rounds, the first being the cold one, and at most {@value #AUTO_MAX}). A round measured
 * while the JIT still compiles pays for it: on a slow 2-core machine the conductor still spent a third of its CPU
 * compiling after six rounds.
 */
record Warmup(int rounds, boolean auto) { // rounds: the number, or auto's most

    static final int SETTLED_PERCENT = 5;
    static final int AUTO_MIN = 2;
    static final int AUTO_MAX = 30;

    /** Whether round {@code next} (from 1) is a warm-up round, after one whose JIT part of the CPU was {@code lastJitShare}. */
    boolean another(int next, double lastJitShare) {
        return next <= rounds && (!auto || next <= AUTO_MIN || lastJitShare * 100 >= SETTLED_PERCENT);
    }

    /** {@code 3/6} or {@code 3/auto}, for the warm-up lines. */
    String progress(int round) {
        return round + "/" + (auto ? "auto" : String.valueOf(rounds));
    }

    /** {@code --warmup R}: a number of rounds (0 or more) or {@code auto}. */
    static final class Converter implements CommandLine.ITypeConverter<Warmup> {

        @Override
        public Warmup convert(String value) {
            if ("auto".equals(value.trim())) {
                return new Warmup(AUTO_MAX, true);
            }
            try {
                int rounds = Integer.parseInt(value.trim());
                if (rounds >= 0) {
                    return new Warmup(rounds, false);
                }
            } catch (NumberFormatException notANumber) {
                // refused below
            }
            throw new CommandLine.TypeConversionException("'" + value + "' is neither a number of rounds (0 or more) nor auto");
        }
    }
}
