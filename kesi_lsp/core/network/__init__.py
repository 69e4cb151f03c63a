"""The sandbox's network (design §2.13): an allow-list proxy outside the sandbox.

`proxy.Channel` serves one command; `access.NetworkAccess` opens it for a session's command
(the judge reads the session's settings and grants live); `widen` reports the refused hosts
and, in mode `ask`, asks the user once per host; `forwarder.py` runs inside the sandbox.
"""
