import sys
# A robots.txt of `size` bytes of short literal rules (`Disallow: /p123`), the most rules
# the limit holds; `new` turns every 50th into an Allow.
size = int(sys.argv[1]); which = sys.argv[2]
out = ["User-agent: *\n"]; n = len(out[0]); i = 0
while True:
    kind = "Allow" if (which == "new" and i % 50 == 0) else "Disallow"
    line = f"{kind}: /p{i}\n"
    if n + len(line) > size: break
    out.append(line); n += len(line); i += 1
sys.stdout.write("".join(out))
