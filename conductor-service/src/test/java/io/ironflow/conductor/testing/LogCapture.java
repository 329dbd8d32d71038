package io.ironflow.conductor.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;

/**
 * What the named logger (and those below it) publishes while this is open, as the log manager hands it out:
 * levels the configuration filters out never arrive. Close it to stop listening.
 */
public final class LogCapture implements AutoCloseable {

    private final Logger logger;
    private final List<ExtLogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record instanceof ExtLogRecord ext) {
                ext.copyMdc(); // now, on the logging thread: read later it would be the test thread's
                records.add(ext);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private LogCapture(String name) {
        this.logger = Logger.getLogger(name);
        logger.addHandler(handler);
    }

    /** Listens to {@code name}'s records; "" is the root logger, every record. */
    public static LogCapture of(String name) {
        return new LogCapture(name);
    }

    public List<ExtLogRecord> records() {
        return List.copyOf(records);
    }

    /** The records of at least {@code level} whose formatted message contains {@code text}. */
    public List<ExtLogRecord> containing(java.util.logging.Level level, String text) {
        return records.stream().filter(r -> r.getLevel().intValue() >= level.intValue() && r.getFormattedMessage().contains(text))
                .toList();
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
