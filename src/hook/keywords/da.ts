import { phrases, type KeywordSet } from "./types.js";

export const da: KeywordSet = {
  lang: "da",
  name: "Danish",
  match: "words",
  patterns: phrases(`
    hvordan fungerer | hvordan virker | hvordan bliver | hvor er | hvor ligger | hvor defineres | hvor kaldes | hvilken fil
    hvilken funktion | hvilken klasse | hvilken metode | hvilket modul | hvem kalder | hvad kalder | kaldes | kaldt fra
    hvem bruger | bruges af | flow | dataflow | livscyklus | indgangspunkt | hvad sker der | påvirkning | påvirker
    afhænger af | arkitektur* | struktur* | defineret | implementeret | implementering af | relation* mellem
  `),
};
