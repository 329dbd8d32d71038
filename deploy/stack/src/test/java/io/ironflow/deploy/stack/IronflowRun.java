package io.ironflow.deploy.stack;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process run of {@code ./ironflow}'s command line ({@link IronflowCli}): its exit code and what it printed. */
record IronflowRun(int code, String out, String err) {

    static IronflowRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = IronflowCli.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new IronflowRun(code, out.toString(), err.toString());
    }

    /** Both streams, for an assertion's message. */
    String printed() {
        return out + err;
    }
}
