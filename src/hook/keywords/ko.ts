import { phrases, type KeywordSet } from "./types.js";

export const ko: KeywordSet = {
  lang: "ko",
  name: "Korean",
  match: "substring",
  patterns: phrases(`
    어떻게 | 어디서 | 어디에 | 어디에서 | 어느 파일 | 어떤 파일 | 어느 함수 | 어떤 함수 | 어느 클래스 | 어떤 클래스
    어느 메서드 | 어떤 메서드 | 어느 모듈 | 누가 호출 | 호출 | 흐름 | 생명주기 | 라이프사이클 | 진입점 | 무슨 일이
    무엇이 일어 | 영향 | 의존 | 아키텍처 | 구조 | 정의되 | 정의된 | 구현되 | 구현된 | 의 관계
  `),
};
