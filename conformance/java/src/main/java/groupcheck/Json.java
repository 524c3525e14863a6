package groupcheck;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A JSON object built field by field, for the driver's event lines (no JSON library needed). */
final class Json {
    private final Map<String, Object> fields = new LinkedHashMap<>();

    Json put(String key, Object value) {
        fields.put(key, value);
        return this;
    }

    boolean has(String key) {
        return fields.containsKey(key);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        write(b, this);
        return b.toString();
    }

    private static void write(StringBuilder b, Object v) {
        if (v instanceof Json j) {
            b.append('{');
            String sep = "";
            for (Map.Entry<String, Object> e : j.fields.entrySet()) {
                b.append(sep);
                quote(b, e.getKey());
                b.append(':');
                write(b, e.getValue());
                sep = ",";
            }
            b.append('}');
        } else if (v instanceof List<?> l) {
            b.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                write(b, l.get(i));
            }
            b.append(']');
        } else if (v instanceof Number || v instanceof Boolean) {
            b.append(v);
        } else {
            quote(b, String.valueOf(v));
        }
    }

    private static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
