// Runs job descriptions on Flink's own MiniCluster and prints where each subtask landed.
//
// Usage: java -cp flink-dist.jar:build FlinkDiff cases.json out.json
//
// cases.json: [{"id", "tms", "slots", "mode", "runs",
//               "job": {"vertices": [{"name", "parallelism", "slot_sharing_group"?}],
//                       "edges": [{"from", "to", "pattern"}]}}]
// pattern: forward | rescale | hash | rebalance. Sources are idle unbounded generators
// (one record a second), chaining is off, a vertex with several inputs reads their
// union, a vertex without outputs is a discarding sink.
//
// out.json: one entry per case and run: the job graph Flink built (vertices in
// insertion order with their inputs, and its topological order) and, per subtask, the
// TaskManager and the slot allocation it runs in. Cases with the same cluster shape
// and mode share one MiniCluster; each job is cancelled and its slots freed before the
// next.

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.runtime.executiongraph.AccessExecution;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.AccessExecutionJobVertex;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.executiongraph.ArchivedExecution;
import org.apache.flink.runtime.jobgraph.JobEdge;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.legacy.DiscardingSink;

import java.io.File;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class FlinkDiff {
    static final ObjectMapper JSON = new ObjectMapper();

    static final class Identity implements MapFunction<Long, Long> {
        @Override
        public Long map(Long v) {
            return v;
        }
    }

    static final class SelfKey implements KeySelector<Long, Long> {
        @Override
        public Long getKey(Long v) {
            return v;
        }
    }

    static final class Counter implements GeneratorFunction<Long, Long> {
        @Override
        public Long map(Long v) {
            return v;
        }
    }

    public static void main(String[] args) throws Exception {
        JsonNode cases = JSON.readTree(new File(args[0]));
        ArrayNode out = JSON.createArrayNode();
        // Group by cluster shape and mode, keeping the first-seen order.
        Map<String, List<JsonNode>> groups = new LinkedHashMap<>();
        for (JsonNode c : cases) {
            String key = c.get("tms").asInt() + "x" + c.get("slots").asInt() + ":" + c.get("mode").asText();
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(c);
        }
        for (List<JsonNode> group : groups.values()) {
            JsonNode first = group.get(0);
            int tms = first.get("tms").asInt();
            int slots = first.get("slots").asInt();
            Configuration conf = new Configuration();
            conf.setString("taskmanager.load-balance.mode", first.get("mode").asText().toUpperCase());
            conf.setString("restart-strategy.type", "none");
            conf.setString("taskmanager.memory.network.min", "96m");
            conf.setString("taskmanager.memory.network.max", "96m");
            conf.setString("rest.bind-port", "0");
            MiniClusterConfiguration mc =
                    new MiniClusterConfiguration.Builder()
                            .setConfiguration(conf)
                            .setNumTaskManagers(tms)
                            .setNumSlotsPerTaskManager(slots)
                            .build();
            try (MiniCluster cluster = new MiniCluster(mc)) {
                cluster.start();
                for (JsonNode c : group) {
                    int runs = c.get("runs").asInt();
                    for (int run = 0; run < runs; run++) {
                        long t0 = System.nanoTime();
                        ObjectNode r = runOnce(cluster, c, tms * slots);
                        r.put("id", c.get("id").asText());
                        r.put("run", run);
                        r.put("ms", (System.nanoTime() - t0) / 1_000_000);
                        out.add(r);
                        System.err.printf("%s run %d: %s (%d ms)%n", c.get("id").asText(), run,
                                r.has("error") ? r.get("error").asText() : "ok", r.get("ms").asLong());
                    }
                }
            }
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(new File(args[1]), out);
    }

    static DataStream<Long> partition(DataStream<Long> s, String pattern) {
        switch (pattern) {
            case "forward":
                return s.forward();
            case "rescale":
                return s.rescale();
            case "rebalance":
                return s.rebalance();
            case "hash":
                return s.keyBy(new SelfKey());
            default:
                throw new IllegalArgumentException("unknown pattern " + pattern);
        }
    }

    static JobGraph build(JsonNode job) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.disableOperatorChaining();
        Map<String, JsonNode> vertices = new LinkedHashMap<>();
        for (JsonNode v : job.get("vertices")) {
            vertices.put(v.get("name").asText(), v);
        }
        Map<String, List<JsonNode>> inputs = new HashMap<>();
        Map<String, Integer> outputs = new HashMap<>();
        for (JsonNode e : job.get("edges")) {
            inputs.computeIfAbsent(e.get("to").asText(), k -> new ArrayList<>()).add(e);
            outputs.merge(e.get("from").asText(), 1, Integer::sum);
        }
        // The description lists vertices in a topological order.
        Map<String, DataStream<Long>> built = new HashMap<>();
        for (JsonNode v : vertices.values()) {
            String name = v.get("name").asText();
            int p = v.get("parallelism").asInt();
            String ssg = v.has("slot_sharing_group") ? v.get("slot_sharing_group").asText() : null;
            List<JsonNode> ins = inputs.getOrDefault(name, List.of());
            if (ins.isEmpty()) {
                DataGeneratorSource<Long> src =
                        new DataGeneratorSource<>(new Counter(), Long.MAX_VALUE,
                                RateLimiterStrategy.perSecond(1), Types.LONG);
                SingleOutputStreamOperator<Long> s =
                        env.fromSource(src, WatermarkStrategy.noWatermarks(), name).setParallelism(p);
                if (ssg != null) {
                    s.slotSharingGroup(ssg);
                }
                built.put(name, s);
                continue;
            }
            DataStream<Long> in = null;
            for (JsonNode e : ins) {
                DataStream<Long> one = partition(built.get(e.get("from").asText()), e.get("pattern").asText());
                in = in == null ? one : in.union(one);
            }
            if (outputs.getOrDefault(name, 0) == 0) {
                DataStreamSink<Long> sink = in.addSink(new DiscardingSink<>()).name(name).setParallelism(p);
                if (ssg != null) {
                    sink.slotSharingGroup(ssg);
                }
            } else {
                SingleOutputStreamOperator<Long> m = in.map(new Identity()).name(name).setParallelism(p);
                if (ssg != null) {
                    m.slotSharingGroup(ssg);
                }
                built.put(name, m);
            }
        }
        return env.getStreamGraph().getJobGraph();
    }

    static ObjectNode describe(JobGraph jg) {
        ObjectNode g = JSON.createObjectNode();
        ArrayNode vs = g.putArray("vertices");
        ArrayNode es = g.putArray("edges");
        Map<Object, String> ssgNames = new IdentityHashMap<>();
        for (JobVertex v : jg.getVertices()) {
            ObjectNode o = vs.addObject();
            o.put("name", v.getName());
            o.put("parallelism", v.getParallelism());
            String ssg = ssgNames.computeIfAbsent(v.getSlotSharingGroup(), k -> "group-" + ssgNames.size());
            o.put("slot_sharing_group", ssg);
            for (JobEdge e : v.getInputs()) {
                ObjectNode eo = es.addObject();
                eo.put("from", e.getSource().getProducer().getName());
                eo.put("to", v.getName());
                eo.put("pattern", e.getDistributionPattern().name());
            }
        }
        ArrayNode topo = g.putArray("topological_order");
        for (JobVertex v : jg.getVerticesSortedTopologicallyFromSources()) {
            topo.add(v.getName());
        }
        return g;
    }

    static ObjectNode runOnce(MiniCluster cluster, JsonNode c, int totalSlots) throws Exception {
        ObjectNode r = JSON.createObjectNode();
        JobGraph jg;
        try {
            jg = build(c.get("job"));
        } catch (Exception e) {
            r.put("error", "build: " + e);
            return r;
        }
        r.set("job_graph", describe(jg));
        int expected = 0;
        for (JobVertex v : jg.getVertices()) {
            expected += v.getParallelism();
        }
        JobID id = cluster.submitJob(jg).get().getJobID();
        long deadline = System.currentTimeMillis() + 60_000;
        ArrayNode subtasks = null;
        while (System.currentTimeMillis() < deadline) {
            AccessExecutionGraph eg = cluster.getExecutionGraph(id).get();
            if (eg.getState().isGloballyTerminalState()) {
                r.put("error", "job ended as " + eg.getState());
                break;
            }
            subtasks = placed(eg, expected);
            if (subtasks != null) {
                break;
            }
            Thread.sleep(50);
        }
        if (subtasks != null) {
            r.set("subtasks", subtasks);
        } else if (!r.has("error")) {
            r.put("error", "not running after 60 s");
        }
        cluster.cancelJob(id);
        while (!cluster.getJobStatus(id).get().isGloballyTerminalState()) {
            Thread.sleep(20);
        }
        // Wait until the slots are free again for the next job.
        long free = System.currentTimeMillis() + 60_000;
        while (cluster.requestClusterOverview().get().getNumSlotsAvailable() < totalSlots
                && System.currentTimeMillis() < free) {
            Thread.sleep(20);
        }
        return r;
    }

    /** Every subtask's TaskManager and slot allocation once all are RUNNING, else null. */
    static ArrayNode placed(AccessExecutionGraph eg, int subtasks) {
        ArrayNode out = JSON.createArrayNode();
        for (AccessExecutionJobVertex jv : eg.getVerticesTopologically()) {
            for (AccessExecutionVertex ev : jv.getTaskVertices()) {
                AccessExecution ex = ev.getCurrentExecutionAttempt();
                if (ex.getState() != org.apache.flink.runtime.execution.ExecutionState.RUNNING) {
                    return null;
                }
                ObjectNode o = out.addObject();
                o.put("vertex", jv.getName());
                o.put("subtask", ev.getParallelSubtaskIndex());
                o.put("tm", ex.getAssignedResourceLocation().getResourceID().toString());
                o.put("slot", ((ArchivedExecution) ex).getAssignedAllocationID().toString());
            }
        }
        // Before the execution graph exists the archived one has no vertices.
        return out.size() == subtasks ? out : null;
    }
}
