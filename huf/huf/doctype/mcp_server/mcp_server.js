// MCP Server form: Test Connection, Sync Tools, and Connect / Disconnect for servers that sign in with OAuth.

frappe.ui.form.on("MCP Server", {
	refresh(frm) {
		if (frm.is_new()) return;
		// Saving a new destination removes the stored secrets (mcp_server.py forget_secrets_when_the_address_changes).
		frm.set_df_property("server_url", "description", __("Changing the address removes the saved key, the headers' values and the sign-in, unless you enter new ones before saving."));
		frm.set_df_property("command", "description", __("Changing the program or its arguments removes the saved environment values, unless you enter new ones before saving."));
		frm.add_custom_button(__("Test Connection"), () => test_connection(frm));
		frm.add_custom_button(__("Sync Tools"), () => sync_tools(frm));
		if (frm.doc.auth_type === "oauth") {
			const connected = frm.doc.oauth_status === "Connected";
			frm.add_custom_button(connected ? __("Sign In Again") : __("Connect"), () => connect(frm), __("Sign-in"));
			if (connected || frm.doc.oauth_status === "Failed") {
				frm.add_custom_button(__("Disconnect"), () => disconnect(frm), __("Sign-in"));
			}
		}
	},
});

function call(frm, method, message) {
	return frappe.call({
		method,
		args: { server_name: frm.doc.name },
		freeze: true,
		freeze_message: message,
	});
}

function test_connection(frm) {
	call(frm, "huf.ai.mcp.client.test_mcp_connection", __("Connecting to the server...")).then(({ message: r }) => {
		if (r.ok) {
			frappe.msgprint({
				title: __("Connected"),
				indicator: "green",
				message: __("{0} {1} answered and offers {2} tools.", [r.server_name, r.server_version, r.tool_count]),
			});
		} else {
			frappe.msgprint({ title: __("Could not connect"), indicator: "red", message: frappe.utils.escape_html(r.error) });
		}
	});
}

function sync_tools(frm) {
	call(frm, "huf.ai.mcp.client.sync_mcp_server_tools", __("Fetching the server's tools...")).then(({ message: r }) => {
		let text = __("The server offers {0} tools.", [r.tool_count]);
		if (r.added.length) text += " " + __("New: {0}.", [r.added.join(", ")]);
		if (r.removed.length) text += " " + __("No longer offered, so turned off: {0}.", [r.removed.join(", ")]);
		frappe.show_alert({ message: text, indicator: "green" }, 8);
		frm.reload_doc();
	});
}

function connect(frm) {
	if (frm.is_dirty()) {
		frappe.msgprint(__("Save the server first, then connect."));
		return;
	}
	call(frm, "huf.ai.mcp.oauth.begin_mcp_sign_in", __("Opening the sign-in page...")).then(({ message: r }) => {
		window.location.href = r.authorization_url;
	});
}

function disconnect(frm) {
	frappe.confirm(__("Forget this server's sign-in? Agents cannot use its tools until someone connects again."), () => {
		call(frm, "huf.ai.mcp.oauth.disconnect_mcp_server", __("Disconnecting...")).then(() => frm.reload_doc());
	});
}
