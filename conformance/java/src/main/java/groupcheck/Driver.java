package groupcheck;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One group member: Kafka's own KafkaConsumer, driven by the Go harness over stdin/stdout.
 *
 * <p>The Go side is the application. Every command is one line on stdin; every event one JSON
 * object on a line of stdout. A rebalance callback does not run application code here: it
 * reports its partitions and then waits for the Go side's commands ({@code commit}, then
 * {@code return}), so the Go side records the callback's begin before anything in it happens and
 * its end before the consumer goes on. Commits likewise report their partitions and wait for
 * {@code go} before they are sent.
 *
 * <pre>
 * start key=value ...   create the consumer with these properties and subscribe to topics=a,b;
 *                       on.fatal=continue|stop says what the application does when poll throws
 * poll MS               poll once (callbacks run inside); answers "polled"
 * commit WHY            commit what was polled and not committed; answers "commit" with the
 *                       partitions, then waits for go and answers "committed" (none: no wait)
 * close MS              close the consumer (callbacks run inside); answers "closed" and exits
 * </pre>
 *
 * <p>A failure is reported as an "error" object (class, message, and the Kafka error name where
 * the exception is an error code's), absent on success.
 *
 * <p>Events carry the member ID and generation from {@link KafkaConsumer#groupMetadata()}: the
 * generation is the classic generation or, under group.protocol=consumer, the member epoch.
 */
public final class Driver {
    private static final Pattern WORDS = Pattern.compile(" +");

    private final BufferedReader in;
    private final PrintStream out;
    private KafkaConsumer<byte[], byte[]> consumer;
    private boolean stopOnFatal;
    /** The offset after the last record polled, per partition, not yet committed. */
    private final Map<TopicPartition, Long> uncommitted = new HashMap<>();

    private Driver(BufferedReader in, PrintStream out) {
        this.in = in;
        this.out = out;
    }

    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int code = new Driver(in, out).run();
        out.flush();
        System.exit(code);
    }

    /** Runs commands until close or the end of stdin; returns the exit code. */
    private int run() throws IOException {
        emit(new Json().put("ev", "ready"));
        for (String line; (line = in.readLine()) != null; ) {
            String[] w = WORDS.split(line.strip());
            if (consumer == null && (w[0].equals("poll") || w[0].equals("commit"))) {
                throw new IllegalStateException(w[0] + " before start");
            }
            switch (w[0]) {
                case "start" -> start(w);
                case "poll" -> poll(millis(w, 1));
                case "commit" -> commit(arg(w, 1));
                case "close" -> {
                    close(millis(w, 1));
                    return 0;
                }
                default -> throw new IllegalArgumentException("unknown command: " + line);
            }
        }
        return 0; // the Go side went away: exit without leaving, as a crash does
    }

    private void start(String[] w) {
        Properties p = new Properties();
        String topics = null;
        for (int i = 1; i < w.length; i++) {
            int eq = w[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("start: " + w[i] + " is not key=value");
            }
            String k = w[i].substring(0, eq), v = w[i].substring(eq + 1);
            switch (k) {
                case "topics" -> topics = v;
                case "on.fatal" -> {
                    if (!v.equals("stop") && !v.equals("continue")) {
                        throw new IllegalArgumentException("start: on.fatal=" + v + ", want stop or continue");
                    }
                    stopOnFatal = v.equals("stop");
                }
                default -> p.setProperty(k, v);
            }
        }
        if (topics == null) {
            throw new IllegalArgumentException("start: no topics=");
        }
        consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(java.util.List.of(topics.split(",")), new Listener());
        emit(group(new Json().put("ev", "started")));
    }

    private void poll(long ms) {
        Json ev = new Json().put("ev", "polled");
        try {
            ConsumerRecords<byte[], byte[]> rs = consumer.poll(Duration.ofMillis(ms));
            for (ConsumerRecord<byte[], byte[]> r : rs) {
                uncommitted.put(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
            }
            ev.put("records", rs.count());
        } catch (KafkaException e) {
            // The reference stops a client on a fatal error; a Java application may catch it and
            // poll again, and the consumer stays usable (it rejoins). Say which this one does.
            ev.put("records", 0).put("error", describe(e)).put("reaction", stopOnFatal ? "stop" : "continue");
        }
        emit(group(ev));
        if (stopOnFatal && ev.has("error")) {
            close(0);
            System.exit(0);
        }
    }

    /** Commits what was polled and not committed, after the Go side said go. */
    private void commit(String why) {
        if (uncommitted.isEmpty()) {
            emit(group(new Json().put("ev", "commit").put("why", why).put("parts", new Json())));
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offs = new HashMap<>();
        uncommitted.forEach((tp, o) -> offs.put(tp, new OffsetAndMetadata(o)));
        emit(group(new Json().put("ev", "commit").put("why", why).put("parts", parts(offs.keySet()))));
        expect("go");
        Json ev = new Json().put("ev", "committed");
        try {
            consumer.commitSync(offs);
            offs.forEach((tp, o) -> uncommitted.remove(tp, o.offset()));
        } catch (KafkaException e) {
            ev.put("error", describe(e));
        }
        emit(group(ev));
    }

    private void close(long ms) {
        Json ev = new Json().put("ev", "closed");
        try {
            if (consumer != null) {
                consumer.close(Duration.ofMillis(ms));
            }
        } catch (KafkaException e) {
            ev.put("error", describe(e));
        }
        emit(ev);
    }

    /** The rebalance listener: each callback is the Go side's to run. */
    private final class Listener implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> ps) {
            callback("assigned", ps);
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> ps) {
            callback("revoked", ps);
            ps.forEach(uncommitted::remove); // no longer ours to commit
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> ps) {
            callback("lost", ps);
            ps.forEach(uncommitted::remove);
        }
    }

    /** Reports a callback and runs the Go side's commands until it says return. */
    private void callback(String kind, Collection<TopicPartition> ps) {
        emit(group(new Json().put("ev", kind).put("parts", parts(ps))));
        for (;;) {
            String[] w = WORDS.split(readLine().strip());
            switch (w[0]) {
                case "commit" -> commit(arg(w, 1));
                case "return" -> {
                    return;
                }
                default -> throw new IllegalArgumentException("in " + kind + ": unexpected command " + w[0]);
            }
        }
    }

    private void expect(String want) {
        String line = readLine().strip();
        if (!line.equals(want)) {
            throw new IllegalArgumentException("want " + want + ", have " + line);
        }
    }

    private String readLine() {
        try {
            String line = in.readLine();
            if (line == null) {
                System.exit(0); // the Go side went away (a crash): no leave
            }
            return line;
        } catch (IOException e) {
            throw new IllegalStateException("stdin: " + e);
        }
    }

    /** Adds the member ID and generation (or member epoch) the consumer is on now. */
    private Json group(Json ev) {
        if (consumer != null) {
            ConsumerGroupMetadata m = consumer.groupMetadata();
            ev.put("member", m.memberId()).put("gen", m.generationId());
        }
        return ev;
    }

    /**
     * Names a failure: the Kafka error name where the exception is an error code's (ApiException;
     * Errors.forException), else the exception's class, with its message.
     */
    private static Json describe(KafkaException e) {
        Json j = new Json().put("class", e.getClass().getSimpleName()).put("message", String.valueOf(e.getMessage()));
        Errors code = e instanceof ApiException ? Errors.forException(e) : Errors.UNKNOWN_SERVER_ERROR;
        return j.put("code", code == Errors.UNKNOWN_SERVER_ERROR ? "" : code.name());
    }

    private static Json parts(Collection<TopicPartition> ps) {
        Map<String, java.util.List<Integer>> by = new java.util.TreeMap<>();
        for (TopicPartition tp : ps) {
            by.computeIfAbsent(tp.topic(), t -> new java.util.ArrayList<>()).add(tp.partition());
        }
        Json j = new Json();
        by.forEach((t, l) -> {
            java.util.Collections.sort(l);
            j.put(t, l);
        });
        return j;
    }

    private void emit(Json ev) {
        out.println(ev);
        out.flush();
    }

    private static String arg(String[] w, int i) {
        if (w.length <= i) {
            throw new IllegalArgumentException(w[0] + ": missing argument " + i);
        }
        return w[i];
    }

    private static long millis(String[] w, int i) {
        return Long.parseLong(arg(w, i));
    }
}
