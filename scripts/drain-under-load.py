#!/usr/bin/env python3
# SIGTERM under load: 32 keep-alive connections send evaluations without pause to a fresh server for 1.5 s, then the
# server is sent SIGTERM; counts the answers, the connections reset (a request lost without an answer) and the exit
# status. docs/ROBUSTNESS.md quotes it.
#
#   python3 scripts/drain-under-load.py .build/release/trust-insights [port]
import os, re, signal, socket, subprocess, sys, tempfile, threading, time
binary = sys.argv[1]
port = int(sys.argv[2]) if len(sys.argv) > 2 else 18231
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
data = tempfile.mkdtemp(prefix="drain-under-load-")
srv = subprocess.Popen([binary,"serve","--data-dir",data,"--port",str(port),"--config-dir",root+"/config","--models-dir",root+"/models"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
key=None
for line in srv.stdout:
    if line.startswith("ti_sandbox_") and key is None: key=line.strip()
    if "listening" in line: break
body=b'{"operationCategory":"payment","requestedInsights":[{"insightType":"isLikelyBeingCoached","schema":"version1"}],"subject":{"accountRef":"a1","deviceRef":"d1","counterpartyRef":"c1"},"features":{"activeCall":1,"screenSharingActive":0,"sessionDurationSeconds":95,"timeOfDayBand":2,"amountBandRelativeToUsual":3}}'
req=(b"POST /v1/evaluations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+key.encode()+b"\r\nContent-Type: application/json\r\nContent-Length: "+str(len(body)).encode()+b"\r\n\r\n"+body)
stats={"ok":0,"reset":0,"eof":0,"other":0}
lock=threading.Lock()
stop=time.time()+3
def worker():
    while time.time()<stop:
        try:
            s=socket.create_connection(("127.0.0.1",port))
        except OSError:
            return
        try:
            while time.time()<stop:
                s.sendall(req)
                buf=b""
                while b"\r\n\r\n" not in buf:
                    d=s.recv(65536)
                    if not d: raise EOFError
                    buf+=d
                head,rest=buf.split(b"\r\n\r\n",1)
                n=int(re.search(rb"Content-Length: (\d+)",head).group(1))
                while len(rest)<n:
                    d=s.recv(65536)
                    if not d: raise EOFError
                    rest+=d
                with lock: stats["ok"]+=1
                if b"Connection: close" in head:
                    s.close(); break
        except ConnectionResetError:
            with lock: stats["reset"]+=1
        except EOFError:
            with lock: stats["eof"]+=1
        except Exception as e:
            with lock: stats["other"]+=1
        finally:
            s.close()
threads=[threading.Thread(target=worker) for _ in range(32)]
for t in threads: t.start()
time.sleep(1.5)
srv.send_signal(signal.SIGTERM)
for t in threads: t.join()
print(stats, "exit", srv.wait())
subprocess.run(["rm","-rf",data])
