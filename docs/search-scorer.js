// The book's search scorer (docs/conf.py, html_search_scorer): Sphinx's default weights,
// and a function that ranks an object the packages export (numeric.a_uoc,
// analytic.uoc_closed_form, ordinal_verify.main) above the same name in an internal module
// (analytic.derivations.forms.*.a_uoc): a reader searching "A_UOC" wants the public function.
var Scorer = {
  score: (result) => {
    const [docname, title, anchor, descr, score, filename, kind] = result;
    if (/^(numeric|analytic|ordinal_verify)\.[A-Za-z]\w*$/.test(title)) return score + 20;
    if (/^(numeric|analytic|ordinal_verify)\.[\w.]+\._\w/.test(title)) return score - 10;
    return score;
  },
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: {0: 15, 1: 5, 2: -5},
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,
};
