#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Records seed inputs for the control-channel fuzz targets from real runs on loopback.

usage: fuzz/record-seeds.py NICBENCH_CLI PORT [IPERF3]

Starts `NICBENCH_CLI -s` (and, with IPERF3, a stock iperf3 server and client) on PORT and
PORT+1, puts a recording relay on PORT+2 in front of the server (TCP, and UDP for -u tests:
datagrams pass unrecorded), runs short tests through it and writes what each side sent on the control connection (the first connection of a test)
into fuzz/corpus/fuzz_server_control/ (client -> server) and fuzz/corpus/fuzz_client_control/
(server -> client, after one byte naming the client's test as the target reads it).
"""
import os
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def relay(listen_port, target_port, record):
    """Accepts connections on listen_port and pipes each to target_port; record[0] and
    record[1] collect what the first connection carried in each direction."""
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", listen_port))
    ls.listen(64)
    ls.settimeout(0.2)
    first = [True]

    def pipe(src, dst, sink):
        try:
            while True:
                b = src.recv(65536)
                if not b:
                    break
                if sink is not None:
                    sink.extend(b)
                dst.sendall(b)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def serve():
        while not record["stop"]:
            try:
                c, _ = ls.accept()
            except socket.timeout:
                continue
            u = socket.create_connection(("127.0.0.1", target_port), timeout=5)
            u.settimeout(None)
            c.settimeout(None)
            sinks = (record["up"], record["down"]) if first[0] else (None, None)
            first[0] = False
            threading.Thread(target=pipe, args=(c, u, sinks[0]), daemon=True).start()
            threading.Thread(target=pipe, args=(u, c, sinks[1]), daemon=True).start()
        ls.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    return t


def udp_relay(listen_port, target_port, record):
    """Passes datagrams between clients on listen_port and the server's target_port: one
    upstream socket per client address, its answers sent back from listen_port."""
    ls = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    ls.bind(("127.0.0.1", listen_port))
    ls.settimeout(0.2)
    upstream = {}

    def back(u, client):
        u.settimeout(0.2)
        while not record["stop"]:
            try:
                ls.sendto(u.recv(65536), client)
            except socket.timeout:
                continue
            except OSError:
                break
        u.close()

    def serve():
        while not record["stop"]:
            try:
                b, client = ls.recvfrom(65536)
            except socket.timeout:
                continue
            if client not in upstream:
                u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                u.connect(("127.0.0.1", target_port))
                upstream[client] = u
                threading.Thread(target=back, args=(u, client), daemon=True).start()
            try:
                upstream[client].send(b)
            except OSError:
                pass
        ls.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    return t


def shape(args):
    """The fuzz_client_control byte for a client command line (see that target)."""
    streams = int(args[args.index("-P") + 1]) if "-P" in args else 1
    b = (streams - 1) & 7
    if "-R" in args:
        b |= 0x08
    if "--bidir" in args:
        b |= 0x10
    if "--rr" in args:
        b |= 0x20
    if "--crr" in args:
        b |= 0x40
    return bytes([b])


def record_run(name, client_cmd, server_port, relay_port):
    rec = {"up": bytearray(), "down": bytearray(), "stop": False}
    t = relay(relay_port, server_port, rec)
    u = udp_relay(relay_port, server_port, rec) if "-u" in client_cmd else None
    subprocess.run(client_cmd + ["-c", "127.0.0.1", "-p", str(relay_port)], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=60)
    time.sleep(0.5)
    rec["stop"] = True
    t.join(5)
    if u:
        u.join(5)
    for target, data in (("fuzz_server_control", bytes(rec["up"])),
                         ("fuzz_client_control", shape(client_cmd) + bytes(rec["down"]))):
        d = os.path.join(HERE, "corpus", target)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    print(f"{name}: client sent {len(rec['up'])} bytes, server sent {len(rec['down'])}")


def main():
    cli, port = sys.argv[1], int(sys.argv[2])
    iperf3 = sys.argv[3] if len(sys.argv) > 3 else None
    servers = [subprocess.Popen([cli, "-s", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    if iperf3:
        servers.append(subprocess.Popen([iperf3, "-s", "-p", str(port + 1)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL))
    time.sleep(1)
    try:
        quick = ["-t", "1", "-i", "0.5"]
        runs = [
            ("nicbench-upload-P2", [cli] + quick + ["-P", "2"], port),
            ("nicbench-reverse", [cli] + quick + ["-R"], port),
            ("nicbench-bidir", [cli] + quick + ["--bidir"], port),
            ("nicbench-rr", [cli, "-t", "1", "--rr", "-P", "2"], port),
            ("nicbench-crr", [cli, "-t", "1", "--crr"], port),
            ("nicbench-bytes", [cli, "-n", "1M"], port),
            ("nicbench-udp-P2", [cli] + quick + ["-u", "-b", "10M", "-P", "2"], port),
            ("nicbench-udp-rr", [cli, "-t", "1", "-u", "--rr", "--in-flight", "2"], port),
        ]
        if iperf3:
            runs += [
                ("iperf3-client", [iperf3] + quick + ["-P", "2"], port),
                ("iperf3-server", [cli] + quick + ["-R"], port + 1),
            ]
        for i, (name, cmd, target) in enumerate(runs):
            record_run(name, cmd, target, port + 2 + i)
    finally:
        for s in servers:
            s.terminate()
            s.wait(10)


if __name__ == "__main__":
    main()
