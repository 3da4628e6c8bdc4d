/* The service worker of the turn alerts (issue 32 §5): shows the alert the server pushed
   ({"title", "body", "url"}) and, when it is tapped, focuses the table's page or opens
   it.  Registered by pushalerts.js; nothing else. */
"use strict";

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  const url = typeof data.url === "string" ? data.url : "/";
  event.waitUntil(self.registration.showNotification(String(data.title || "porphyra"), {
    body: String(data.body || ""), tag: url, data: { url },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const wanted = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (wanted.origin !== self.location.origin) return;  // (only this site's pages)
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((pages) => {
    for (const page of pages) {
      if (new URL(page.url).pathname === wanted.pathname && "focus" in page) return page.focus();
    }
    return self.clients.openWindow(wanted.href);
  }));
});
