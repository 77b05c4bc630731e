# A raw HTTP/1.1 server on 127.0.0.1: one response per connection, no `Connection: close`,
# closed 20 ms later; /robots.txt redirects (301) to /real/robots.txt.
import socket, threading, time, sys
srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", int(sys.argv[1]))); srv.listen(64)
def handle(c):
    data = b""
    while b"\r\n\r\n" not in data:
        d = c.recv(4096)
        if not d: c.close(); return
        data += d
    if data.startswith(b"GET /robots.txt "):
        c.sendall(b"HTTP/1.1 301 Moved\r\nLocation: /real/robots.txt\r\nContent-Length: 0\r\n\r\n")
    else:
        body = b"User-agent: *\nDisallow: /private\n"
        c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    time.sleep(0.02); c.close()
while True:
    c, _ = srv.accept(); threading.Thread(target=handle, args=(c,), daemon=True).start()
