# SPDX-License-Identifier: GPL-2.0
# gdb script for prof-read.sh: on QEMU's gdbstub, stops at the guest program's
# prof_call(), single-steps it to its return (through the kernel: QEMU keeps
# interrupts off while stepping) and writes each instruction's address to a file;
# then sets prof_stop so that the program ends.  Parameters come from the
# environment: PROF_PORT, PROF_CALL, PROF_STOP (addresses), PROF_OUT.
import os
import gdb

port = os.environ["PROF_PORT"]
call = int(os.environ["PROF_CALL"], 16)
stop = int(os.environ["PROF_STOP"], 16)
out = os.environ["PROF_OUT"]

gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("target remote 127.0.0.1:%s" % port)
gdb.execute("hbreak *0x%x" % call)
gdb.execute("continue")
inf = gdb.selected_inferior()
rsp = int(gdb.parse_and_eval("$rsp")) & (2**64 - 1)
ret = int.from_bytes(bytes(inf.read_memory(rsp, 8)), "little")
gdb.execute("delete")
pcs = [call]
while True:
    gdb.execute("stepi", to_string=True)
    pc = int(gdb.parse_and_eval("$pc")) & (2**64 - 1)
    if pc == ret:
        break
    pcs.append(pc)
    if len(pcs) > 2000000:
        break
with open(out, "w") as f:
    for pc in pcs:
        f.write("%x\n" % pc)
inf.write_memory(stop, (1).to_bytes(4, "little"))
gdb.execute("detach")
