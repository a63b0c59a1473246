import { phrases, type KeywordSet } from "./types.js";

export const ro: KeywordSet = {
  lang: "ro",
  name: "Romanian",
  match: "words",
  patterns: phrases(`
    cum funcționează | cum se | unde este | unde e | unde sunt | unde se | în ce fișier | ce fișier | ce funcție | ce clasă
    ce metodă | ce modul | cine apelează | ce apelează | apelat* | apelează | cine folosește | folosit de | flux | fluxul
    fluxul de date | ciclu de viață | ciclul de viață | punct de intrare | ce se întâmplă | impact | impactul | afectat*
    depinde de | arhitectur* | structur* | definit* | implementat* | implementare* | relați* între
  `),
};
