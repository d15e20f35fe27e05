// A small registry to seed end-to-end and browser tests with, as files an
// association office and a tournament director would have: 16 players and
// the EGF results file of a 5-round Swiss between the first 12, plus the
// cells of a round robin of the first 8.
#ifndef GORANK_TESTS_TESTING_SEED_REGISTRY_H_
#define GORANK_TESTS_TESTING_SEED_REGISTRY_H_

namespace gorank::testing {

// name, Latin name, rank, gender, birth date: the players file the
// association office keeps (a dan certificate needs gender and birth date).
inline constexpr char kPlayersFile[] =
    "王磊\tWang Lei\t5d\tmale\t1990-03-04\n"
    "李伟\tLi Wei\t5d\tmale\t1992-07-11\n"
    "张伟\tZhang Wei\t4d\tmale\t1995-01-20\n"
    "刘洋\tLiu Yang\t4d\tfemale\t1996-05-02\n"
    "陈晨\tChen Chen\t3d\tfemale\t1998-09-09\n"
    "杨帆\tYang Fan\t3d\tmale\t1999-12-24\n"
    "赵敏\tZhao Min\t2d\tfemale\t2001-02-14\n"
    "黄磊\tHuang Lei\t2d\tmale\t2002-06-30\n"
    "周杰\tZhou Jie\t1d\tmale\t2004-08-08\n"
    "吴芳\tWu Fang\t1d\tfemale\t2005-10-01\n"
    "孙丽\tSun Li\t1k\tfemale\t2008-04-18\n"
    "钱明\tQian Ming\t2k\tmale\t2010-11-11\n"
    "郑强\tZheng Qiang\t1d\tmale\t2003-03-03\n"
    "王芳\tWang Fang\t1k\tfemale\t2006-06-06\n"
    "林涛\tLin Tao\t2k\tmale\t2007-07-07\n"
    "何静\tHe Jing\t3k\tfemale\t2009-09-09\n";

// The first 12 play the Swiss and the first 8 the round robin; all 16 the
// team event.
inline constexpr const char* kLatin[] = {
    "Wang Lei",    "Li Wei",    "Zhang Wei", "Liu Yang",
    "Chen Chen",   "Yang Fan",  "Zhao Min",  "Huang Lei",
    "Zhou Jie",    "Wu Fang",   "Sun Li",    "Qian Ming",
    "Zheng Qiang", "Wang Fang", "Lin Tao",   "He Jing"};

// The director's EGF file of the Swiss: names in Latin letters (row 3 in
// Chinese), the agency prefix as club, no ids. Row 12 withdrew after round
// 4 (EGF cannot say so: "0-"), row 4 had the bye.
inline constexpr char kSwissEgf[] =
    "; CL[A]\n"
    "; EV[National Amateur Open 2026]\n"
    "; PC[CN, Beijing]\n"
    "; KM[7.5]\n"
    "; TM[90]\n"
    ";\n"
    "; Pl Name                            Rk Co Club\n"
    "   1 Wang Lei                        5d CN 110    12+/b0   11+/b0   "
    "10+/b0    9+/b0    8+/b0\n"
    "   2 Li Wei                          5d CN 110    11+/b0    9+/b0    "
    "7+/b0    5+/b0    3+/b0\n"
    "   3 张伟                            4d CN 110    10+/b0    8+/b0    "
    "6+/b0    4+/b0    2-/w0\n"
    "   4 Liu Yang                        4d CN 110     9+/b0    7+/b0    "
    "5+/b0    3-/w0       0+\n"
    "   5 Chen Chen                       3d CN 110     8+/b0    6+/b0    "
    "4-/w0    2-/w0   11+/w0\n"
    "   6 Yang Fan                        3d CN 110     7+/b0    5-/w0    "
    "3-/w0   12+/w0   10+/w0\n"
    "   7 Zhao Min                        2d CN 110     6-/w0    4-/w0    "
    "2-/w0   11+/w0    9+/w0\n"
    "   8 Huang Lei                       2d CN 110     5-/w0    3-/w0   "
    "12+/w0   10+/w0    1-/w0\n"
    "   9 Zhou Jie                        1d CN 110     4-/w0    2-/w0   "
    "11-/w0    1-/w0    7-/b0\n"
    "  10 Wu Fang                         1d CN 110     3-/w0   12+/w0    "
    "1-/w0    8-/b0    6-/b0\n"
    "  11 Sun Li                          1k CN 110     2-/w0    1-/w0    "
    "9+/b0    7-/b0    5-/b0\n"
    "  12 Qian Ming                       2k CN 110     1-/w0   10-/b0    "
    "8-/b0    6-/b0       0-\n";

// Round robin of the first 8 players (circle method); 1 and 2 draw and
// beat everyone else: tied on every criterion.
inline constexpr const char* kRoundRobinCells[] = {
    "8+/b0,7+/b0,6+/b0,5+/b0,4+/b0,3+/b0,2=/b0",
    "7+/b0,5+/b0,3+/b0,8+/w0,6+/w0,4+/w0,1=/w0",
    "6+/b0,4+/b0,2-/w0,7+/w0,5+/w0,1-/w0,8+/b0",
    "5+/b0,3-/w0,8+/w0,6+/w0,1-/w0,2-/b0,7+/b0",
    "4-/w0,2-/w0,7+/w0,1-/w0,3-/b0,8+/b0,6+/b0",
    "3-/w0,8+/w0,1-/w0,4-/b0,2-/b0,7+/b0,5-/w0",
    "2-/w0,1-/w0,5-/b0,3-/b0,8+/b0,6-/w0,4-/w0",
    "1-/w0,6-/b0,4-/b0,2-/b0,7-/w0,5-/w0,3-/w0"};

}  // namespace gorank::testing

#endif  // GORANK_TESTS_TESTING_SEED_REGISTRY_H_
