/* The organiser's token, for the organiser's pages (/club, /cards): from the link just opened (its fragment, #t=...,
 * which never reaches the server; dropped from the address bar), else the one kept in this tab (sessionStorage, so
 * that the table cards opened from the organiser's page have it too); null without either. */
window.coimbraOrganiserToken = function () {
  "use strict";
  const KEY = "coimbra.organiser";
  const m = /(?:^#|&)t=([^&]+)/.exec(location.hash);
  if (m) {
    try { history.replaceState(null, "", location.pathname + location.search); } catch (e) { /* no history */ }
    const given = decodeURIComponent(m[1]);
    try { sessionStorage.setItem(KEY, given); } catch (e) { /* private mode */ }
    return given;
  }
  try { return sessionStorage.getItem(KEY); } catch (e) { return null; }
};
