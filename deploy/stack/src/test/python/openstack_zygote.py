"""Runs the real `openstack` CLI once per request, each run in a process forked from this one.

/usr/bin/openstack spends about 1.4 s of every run importing openstackclient, keystoneauth and their plugins before
it sends a request. This process imports them once; each run is then a fork of it, with its own argv, OS_*
environment, stdin, stdout and stderr, ending in its own exit code: the console script's
`sys.exit(openstackclient.shell.main())`, in a fresh process as an operator's run is, started warm.

Protocol, one JSON object per line: on fd 0 a request {"args", "env", "stdin", "stdout", "stderr"} (the last three
are file paths); on fd 1 the answers {"pid": N} when the run starts, then {"exit": code} when it ends (a negative
code is the signal that killed it). One run at a time; EOF on fd 0 ends the server.
"""

import json
import os
import sys
import traceback

sys.argv = ["/usr/bin/openstack"]  # cliff names the program after argv[0] when it is imported
from openstackclient import shell  # noqa: E402 (the console script's own import)
from openstackclient.shell import OpenStackShell  # noqa: E402


def warm():
    """Loads the command entry points and the baremetal plugin once, as every run would, into this process."""
    OpenStackShell()
    import ironicclient.osc.plugin  # noqa: F401
    import ironicclient.osc.v1.baremetal_driver  # noqa: F401
    import ironicclient.osc.v1.baremetal_node  # noqa: F401
    import ironicclient.osc.v1.baremetal_port  # noqa: F401
    import ironicclient.osc.v1.baremetal_portgroup  # noqa: F401
    import ironicclient.v1.client  # noqa: F401


def run(request):
    """In the forked child: becomes one `openstack ARGS` run and exits with its code."""
    code = 1
    try:
        for name in [n for n in os.environ if n.startswith("OS_")]:
            del os.environ[name]
        os.environ.update(request["env"])
        for fd, path, flags in ((0, request["stdin"], os.O_RDONLY),
                                (1, request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                                (2, request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            opened = os.open(path, flags, 0o600)
            os.dup2(opened, fd)
            os.close(opened)
        sys.argv = ["/usr/bin/openstack"] + request["args"]
        code = shell.main()
    except SystemExit as exit:
        code = exit.code
    except BaseException:
        traceback.print_exc()
        code = 1
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)  # what sys.exit("message") does
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code & 0xFF)


def serve():
    requests = os.fdopen(os.dup(0), "rb", buffering=0)
    answers = os.fdopen(os.dup(1), "w", buffering=1)
    # The runs own fds 0-2: this process's stdin is empty and its stdout goes to its stderr, never to the answers.
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    warm()
    while True:
        line = requests.readline()
        if not line:
            return
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            requests.close()
            answers.close()
            run(request)
        answers.write(json.dumps({"pid": pid}) + "\n")
        _, status = os.waitpid(pid, 0)
        answers.write(json.dumps({"exit": os.waitstatus_to_exitcode(status)}) + "\n")


if __name__ == "__main__":
    serve()
