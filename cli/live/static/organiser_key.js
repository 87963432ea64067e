/* A page's token from the link just opened (its fragment, #t=..., which never reaches the server; dropped from the
 * address bar), else the one kept in this tab under `key` (sessionStorage, so that the table cards opened from the
 * organiser's page have it too); null without either. The organiser's pages (/club, /cards) keep theirs as
 * "coimbra.organiser", the evening page (/evening) its own. */
window.coimbraLinkToken = function (key) {
  "use strict";
  const m = /(?:^#|&)t=([^&]+)/.exec(location.hash);
  if (m) {
    try { history.replaceState(null, "", location.pathname + location.search); } catch (e) { /* no history */ }
    const given = decodeURIComponent(m[1]);
    try { sessionStorage.setItem(key, given); } catch (e) { /* private mode */ }
    return given;
  }
  try { return sessionStorage.getItem(key); } catch (e) { return null; }
};

/* The organiser's token, for the organiser's pages. */
window.coimbraOrganiserToken = () => window.coimbraLinkToken("coimbra.organiser");
