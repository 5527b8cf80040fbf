#!/usr/bin/python3
"""A FAKE org.freedesktop.Notifications server, for tests only: there is no notification daemon
on a headless CI machine. It owns the name on the session bus, accepts Notify calls and appends
each one as a JSON line (id, sender, app name, summary, body, actions) to the file given as
argument. Tests running at once share one (the name has one owner); each reads its own app's lines,
by the app's unique bus name (the sender).
A test clicks a notification as a user would with the fake's own method, Click(u id), which emits
ActionInvoked(id, "default") as a real daemon does for a click on the notification."""
import json
import os
import sys

from gi.repository import Gio, GLib

XML = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="Notify">
      <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
    </method>
    <method name="CloseNotification"><arg type="u" direction="in"/></method>
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
    </method>
    <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
    <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
  </interface>
  <interface name="app.builderos.Tests.FakeNotifications">
    <method name="Click"><arg type="u" direction="in"/></method>
  </interface>
</node>
"""
log_path = sys.argv[1]
counter = [0]


def on_call(connection, sender, path, interface, method, params, invocation):
    if method == "Notify":
        app, _replaces, _icon, summary, body, actions, _hints, _timeout = params.unpack()
        counter[0] += 1
        with open(log_path, "a") as log:
            log.write(json.dumps({"id": counter[0], "sender": sender, "app": app, "summary": summary, "body": body, "actions": actions}) + "\n")
        invocation.return_value(GLib.Variant("(u)", (counter[0],)))
    elif method == "Click":
        connection.emit_signal(None, path, "org.freedesktop.Notifications", "ActionInvoked",
                               GLib.Variant("(us)", (params.unpack()[0], "default")))
        invocation.return_value(None)
    elif method == "GetCapabilities":
        invocation.return_value(GLib.Variant("(as)", (["body", "actions"],)))
    elif method == "GetServerInformation":
        invocation.return_value(GLib.Variant("(ssss)", ("fake-notifications", "builderos-tests", "1", "1.2")))
    else:
        invocation.return_value(None)


def on_bus(connection, name):
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    for interface in node.interfaces:
        connection.register_object("/org/freedesktop/Notifications", interface, on_call, None, None)


Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.Notifications", Gio.BusNameOwnerFlags.NONE, on_bus,
                 lambda *a: print("ready", flush=True), lambda *a: sys.exit(1))
# It ends with the test process that started it (and with the bus).
parent = os.getppid()
GLib.timeout_add(200, lambda: os.getppid() == parent or os._exit(0))
GLib.MainLoop().run()
