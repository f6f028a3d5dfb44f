// A static server for this folder on 127.0.0.1 (no dependencies): `npm start`,
// then open http://127.0.0.1:8081/ (PORT=... to change, PORT=0 picks a free one).
import http from "node:http";
import { createReadStream, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  const rel = decodeURIComponent(url.pathname === "/" ? "/index.html" : url.pathname);
  const file = path.join(ROOT, path.normalize(rel));
  let ok = file.startsWith(ROOT + path.sep);
  try {
    ok = ok && statSync(file).isFile();
  } catch {
    ok = false;
  }
  if (!ok) return res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream", "x-content-type-options": "nosniff" });
  createReadStream(file).pipe(res);
});
server.listen(Number(process.env.PORT ?? 8081), "127.0.0.1", () => {
  console.log(`http://127.0.0.1:${server.address().port}/`);
});
