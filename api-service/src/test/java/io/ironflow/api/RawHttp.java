package io.ironflow.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, one request per connection, the request line and headers sent byte for byte
 * (ISO-8859-1): what a fuzzer needs and every HTTP client refuses to send (broken percent-encoding, raw
 * high bytes in the target, any header value). The response is read to the end of the connection.
 */
final class RawHttp {

    record Reply(int status, Map<String, String> headers, String body) {

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final String host;
    private final int port;

    RawHttp(URL root) {
        this.host = root.getHost();
        this.port = root.getPort();
    }

    /** Sends the request; {@code body} null sends none, {@code chunked} sends it without a Content-Length. */
    Reply send(String method, String target, Map<String, String> headers, byte[] body, boolean chunked) throws IOException {
        try (Socket socket = new Socket(host, port)) {
            socket.setSoTimeout(60_000);
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            // the caller's own Host, if it names one (a DNS-rebinding page's), else this server's
            String hostHeader = headers.containsKey("Host") ? "" : "Host: " + host + ":" + port + "\r\n";
            write(head, method + " " + target + " HTTP/1.1\r\n" + hostHeader + "Connection: close\r\n");
            for (Map.Entry<String, String> header : headers.entrySet()) {
                write(head, header.getKey() + ": " + header.getValue() + "\r\n");
            }
            if (body != null) {
                write(head, chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + body.length + "\r\n");
            }
            write(head, "\r\n");
            OutputStream out = socket.getOutputStream();
            try {
                out.write(head.toByteArray());
                if (body != null && chunked) {
                    for (int at = 0; at < body.length; at += 8192) {
                        int n = Math.min(8192, body.length - at);
                        write(out, Integer.toHexString(n) + "\r\n");
                        out.write(body, at, n);
                        write(out, "\r\n");
                    }
                    write(out, "0\r\n\r\n");
                } else if (body != null) {
                    out.write(body);
                }
                out.flush();
            } catch (IOException e) {
                // The server may answer (413) and close before the whole body is sent; its answer is still there.
            }
            return read(socket.getInputStream());
        }
    }

    private static Reply read(InputStream in) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        byte[] buffer = new byte[16384];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                received.write(buffer, 0, n);
            }
        } catch (IOException e) {
            // A reset after the answer (the server closed on a body it would not read): keep what arrived.
            if (received.size() == 0) {
                throw e;
            }
        }
        byte[] all = received.toByteArray();
        String text = new String(all, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IOException("no complete response: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        byte[] rest = java.util.Arrays.copyOfRange(all, end + 4, all.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            rest = dechunk(rest);
        } else if (headers.containsKey("content-length")) {
            int length = Integer.parseInt(headers.get("content-length"));
            rest = java.util.Arrays.copyOf(rest, Math.min(length, rest.length));
        }
        return new Reply(status, headers, new String(rest, StandardCharsets.UTF_8));
    }

    private static byte[] dechunk(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (at < data.length) {
            int lineEnd = indexOf(data, at);
            if (lineEnd < 0) {
                break;
            }
            String size = new String(data, at, lineEnd - at, StandardCharsets.ISO_8859_1).split(";")[0].trim();
            int n = Integer.parseInt(size, 16);
            if (n == 0) {
                break;
            }
            out.write(data, lineEnd + 2, Math.min(n, data.length - lineEnd - 2));
            at = lineEnd + 2 + n + 2;
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] data, int from) {
        for (int i = from; i + 1 < data.length; i++) {
            if (data[i] == '\r' && data[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    }
}
