# A stand-in embeddings server for measuring the size and cost of dense
# vectors without a model (bench/RETRIEVAL.md): it answers Ollama's
# POST /api/embed, each text becoming a DIM-dimensional bag of its
# whitespace-separated words hashed into buckets. It is not a model; its
# vectors mean nothing beyond shared words, and being sparse they compress
# far better on disk than a model's would.
#
# Usage: python3 bench/embed_standin.py PORT [DIM]   (default DIM 768)
import http.server, json, sys, zlib
DIM = int(sys.argv[2]) if len(sys.argv) > 2 else 768
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_POST(self):
        n = int(self.headers.get('Content-Length', 0))
        req = json.loads(self.rfile.read(n))
        out = []
        for t in req.get('input', []):
            v = [0.0] * DIM
            for w in t.split():
                v[zlib.crc32(w.encode()) % DIM] += 1.0
            out.append(v)
        body = json.dumps({"model": req.get("model"), "embeddings": out}).encode()
        self.send_response(200); self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(body))); self.end_headers(); self.wfile.write(body)
http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()
