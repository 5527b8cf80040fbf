#!/usr/bin/python3
"""A FAKE StatusNotifierWatcher and tray host, for tests only: a headless CI machine has no panel.

It owns org.kde.StatusNotifierWatcher, takes RegisterStatusNotifierItem calls, and then behaves as a host would:
reads the item's properties and its com.canonical.dbusmenu layout, follows its signals (NewIcon, NewToolTip,
NewStatus, ItemsPropertiesUpdated, LayoutUpdated) and logs all of it, one JSON object a line, to the file given as argument.
The scenario steers it through app.builderos.Tests.FakeTray (on a connection of its own that outlives restarts):
  Click(label)            sends the menu item's "clicked" event, like a user choosing it
  Activate(token)         ProvideXdgActivationToken(token) when not empty, then Activate(0, 0), like a click on the icon
  Restart() / Stop() / Start()   the watcher leaves the bus (its connection closes) and comes back as a new peer
Prints "ready" once the names are owned."""
import json
import sys
import time

from gi.repository import Gio, GLib

WATCHER = "org.kde.StatusNotifierWatcher"
# The freedesktop-named watcher too: the app registers with every watcher it finds.
WATCHERS = [WATCHER, "org.freedesktop.StatusNotifierWatcher"]
ITEM = "org.kde.StatusNotifierItem"
MENU = "com.canonical.dbusmenu"
WATCHER_INTERFACE = """<interface name="{name}">
  <method name="RegisterStatusNotifierItem"><arg type="s" direction="in"/></method>
  <method name="RegisterStatusNotifierHost"><arg type="s" direction="in"/></method>
  <property name="RegisteredStatusNotifierItems" type="as" access="read"/>
  <property name="IsStatusNotifierHostRegistered" type="b" access="read"/>
  <property name="ProtocolVersion" type="i" access="read"/>
  <signal name="StatusNotifierItemRegistered"><arg type="s"/></signal>
  <signal name="StatusNotifierItemUnregistered"><arg type="s"/></signal>
  <signal name="StatusNotifierHostRegistered"/>
  <signal name="StatusNotifierHostUnregistered"/>
</interface>"""
WATCHER_XML = "<node>" + "".join(WATCHER_INTERFACE.format(name=name) for name in WATCHERS) + "</node>"
CONTROL_XML = """<node><interface name="app.builderos.Tests.FakeTray">
  <method name="Click"><arg type="s" direction="in"/><arg type="b" direction="out"/></method>
  <method name="Activate"><arg type="s" direction="in"/></method>
  <method name="Restart"/><method name="Stop"/><method name="Start"/>
</interface></node>"""

log_path = sys.argv[1]
state = {"generation": 0, "watcher": None, "owner": None, "items": [], "item": None, "layout": {}, "subscriptions": []}
control = Gio.bus_get_sync(Gio.BusType.SESSION, None)


def log(event, **fields):
    with open(log_path, "a") as out:
        out.write(json.dumps({"event": event, "t": time.monotonic(), "generation": state["generation"], **fields}) + "\n")


def item_call(method, interface, args, reply=None, path="/StatusNotifierItem"):
    return control.call_sync(state["item"], path, interface, method, args, GLib.VariantType(reply) if reply else None,
                             Gio.DBusCallFlags.NONE, 5000, None)


def menu_call(method, args, reply=None):
    return item_call(method, MENU, args, reply, path=state["menu_path"])


def read_properties():
    props = item_call("GetAll", "org.freedesktop.DBus.Properties", GLib.Variant("(s)", (ITEM,)), "(a{sv})").unpack()[0]
    state["menu_path"] = props["Menu"]
    tooltip = props["ToolTip"]
    log("properties", id=props["Id"], category=props["Category"], status=props["Status"], title=props["Title"],
        icon=props["IconName"], menu=props["Menu"], tooltip_title=tooltip[2], tooltip_body=tooltip[3],
        pixmaps=[[w, h, len(data)] for (w, h, data) in props["IconPixmap"]])


def read_layout():
    if not state.get("menu_path"):
        return  # not read yet: host_item reads it next
    revision, (root, _props, children) = menu_call("GetLayout", GLib.Variant("(iias)", (0, -1, [])), "(u(ia{sv}av))").unpack()
    items = [{"id": cid, "label": p.get("label", ""), "enabled": p.get("enabled", True), "type": p.get("type", "standard"),
              "toggle": p.get("toggle-state", -1)} for (cid, p, _c) in children]
    state["layout"] = {i["label"].replace("_", ""): i["id"] for i in items if i["type"] != "separator"}
    log("layout", revision=revision, items=items)


def on_item_signal(_conn, _sender, _path, interface, signal, params):
    if interface == MENU and signal == "LayoutUpdated":
        log("signal", name=signal, revision=params.unpack()[0])
        read_layout()
        return
    if interface == MENU:
        updated = [{"id": i, **p} for (i, p) in params.unpack()[0]]
        log("signal", name=signal, updated=updated)
        read_layout()
        return
    log("signal", name=signal)
    if signal == "NewIcon":
        icon = item_call("Get", "org.freedesktop.DBus.Properties", GLib.Variant("(ss)", (ITEM, "IconName")), "(v)").unpack()[0]
        log("icon", icon=icon)
    elif signal == "NewToolTip":
        tip = item_call("Get", "org.freedesktop.DBus.Properties", GLib.Variant("(ss)", (ITEM, "ToolTip")), "(v)").unpack()[0]
        log("tooltip", title=tip[2], body=tip[3])


def host_item(service):
    """What a panel does with a new item: follow its signals, read it, show its menu."""
    for sub in state["subscriptions"]:
        control.signal_unsubscribe(sub)
    state["item"] = service
    state["menu_path"] = None
    state["subscriptions"] = [control.signal_subscribe(service, iface, None, None, None, Gio.DBusSignalFlags.NONE, on_item_signal)
                              for iface in (ITEM, MENU)]
    read_properties()
    read_layout()


def on_watcher_call(connection, sender, _path, iface, method, params, invocation):
    if method == "RegisterStatusNotifierItem":
        service = params.unpack()[0]
        service = sender if service.startswith("/") else service
        state["items"] = [service]
        log("registered", service=service, sender=sender, watcher=iface)
        invocation.return_value(None)
        connection.emit_signal(None, "/StatusNotifierWatcher", iface, "StatusNotifierItemRegistered", GLib.Variant("(s)", (service,)))
        if iface == WATCHER:  # one host reads the item (the freedesktop watcher only records it)
            GLib.idle_add(lambda: host_item(service) and False)
    else:
        invocation.return_value(None)


def on_watcher_property(_c, _s, _p, _i, name):
    return {"RegisteredStatusNotifierItems": GLib.Variant("as", state["items"]),
            "IsStatusNotifierHostRegistered": GLib.Variant("b", True),
            "ProtocolVersion": GLib.Variant("i", 0)}.get(name)


def start_watcher():
    """A new connection each time, so the app sees the watcher leave and a new peer take the name."""
    address = Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION, None)
    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    connection = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
    node = Gio.DBusNodeInfo.new_for_xml(WATCHER_XML)
    for interface in node.interfaces:
        connection.register_object("/StatusNotifierWatcher", interface, on_watcher_call, on_watcher_property, None)
    state["generation"] += 1
    state["watcher"] = connection
    for name in WATCHERS:
        reply = connection.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                                     GLib.Variant("(su)", (name, 4)), None, Gio.DBusCallFlags.NONE, 5000, None)
        log("watcher-started", name=name, reply=reply.unpack()[0])


def stop_watcher():
    if state["watcher"]:
        state["watcher"].close_sync(None)
        state["watcher"] = None
        log("watcher-stopped")


def on_control_call(_connection, _sender, _path, _iface, method, params, invocation):
    if method == "Click":
        label = params.unpack()[0]
        item_id = state["layout"].get(label)
        if item_id is not None:
            log("click", label=label, id=item_id)
            menu_call("Event", GLib.Variant("(isvu)", (item_id, "clicked", GLib.Variant("i", 0), 0)))
        invocation.return_value(GLib.Variant("(b)", (item_id is not None,)))
        return
    if method == "Activate":
        token = params.unpack()[0]
        if token:
            item_call("ProvideXdgActivationToken", ITEM, GLib.Variant("(s)", (token,)))
        log("activate", token=token)
        item_call("Activate", ITEM, GLib.Variant("(ii)", (0, 0)))
    elif method == "Restart":
        stop_watcher()
        GLib.timeout_add(300, lambda: start_watcher() and False)
    elif method == "Stop":
        stop_watcher()
    elif method == "Start":
        start_watcher()
    invocation.return_value(None)


control.register_object("/app/builderos/Tests/FakeTray", Gio.DBusNodeInfo.new_for_xml(CONTROL_XML).interfaces[0],
                        on_control_call, None, None)
control.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                  GLib.Variant("(su)", ("app.builderos.Tests.FakeTray", 4)), None, Gio.DBusCallFlags.NONE, 5000, None)
start_watcher()
print("ready", flush=True)
GLib.MainLoop().run()
