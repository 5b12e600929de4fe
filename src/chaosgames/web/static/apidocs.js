// Starts Swagger UI on /api/docs (see web/apidocs.py): no inline script, so the page keeps
// the server's Content-Security-Policy.
"use strict";
(() => {
  const root = document.getElementById("swagger-ui");
  window.ui = window.SwaggerUIBundle({
    url: root.dataset.openapi,
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
})();
