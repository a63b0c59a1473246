import { phrases, type KeywordSet } from "./types.js";

export const nb: KeywordSet = {
  lang: "nb",
  name: "Norwegian (Bokmål)",
  match: "words",
  patterns: phrases(`
    hvordan fungerer | hvordan virker | hvor er | hvor ligger | hvor defineres | hvor kalles | hvilken fil | hvilken funksjon
    hvilken klasse | hvilken metode | hvilken modul | hvem kaller | hva kaller | kalles | kalt fra | hvem bruker | brukes av
    flyt | dataflyt | livssyklus | inngangspunkt | hva skjer | påvirkning | påvirker | avhenger av | arkitektur* | struktur*
    definert | implementert | implementering av | forhold mellom
  `),
};
