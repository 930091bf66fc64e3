// Bundled word lists for person-name detection, written for this project (no downloaded data): common
// given names and surnames in US records, titles, and capitalised words that are not names.

const list = (words: string) => new Set(words.split(/\s+/).filter(Boolean).map((word) => word.toLowerCase()));

export const FIRST_NAMES = list(`
Aaron Abby Abigail Abraham Ada Adam Adrian Adriana Adrienne Agnes Ahmed Aidan Aiden Aisha Alan Albert Alberto Alejandra Alejandro
Alex Alexa Alexander Alexandra Alexis Alfred Alfredo Ali Alice Alicia Alison Allan Allen Allison Alma Alvin Alyssa Amanda Amber Amelia
Amir Amy Ana Andre Andrea Andres Andrew Andy Angel Angela Angelica Angelina Angie Anita Ann Anna Anne Annette Annie Anthony Antonio
April Ariana Ariel Arlene Armando Arnold Arthur Arturo Ashley Aubrey Audrey Austin Autumn Ava Avery Barbara Barry Beatrice Becky Belinda
Ben Benjamin Bernard Bernice Beth Bethany Betty Beverly Bianca Billy Blake Bobby Bonnie Brad Bradley Brady Brandi Brandon Brandy Brenda
Brent Brett Brian Briana Brianna Bridget Brittany Brooke Bruce Bryan Bryce Caitlin Caleb Calvin Cameron Camila Candace Cara Carl Carla
Carlos Carmen Carol Caroline Carolyn Carrie Casey Cassandra Catherine Cathy Cecilia Cedric Chad Charlene Charles Charlie Charlotte Chase
Chelsea Cheryl Chloe Chris Christian Christina Christine Christopher Cindy Claire Clara Clarence Claudia Clayton Clifford Clinton Cody
Colin Colleen Connie Connor Constance Cora Corey Cory Courtney Craig Cristina Crystal Curtis Cynthia Daisy Dale Dallas Damian Damon Dan
Dana Daniel Daniela Danielle Danny Darius Darlene Darnell Darrell Darren Darryl Daryl Dave David Dawn Dean Deanna Debbie Deborah Debra
Deidre Delia Denise Dennis Derek Derrick Desiree Devin Diana Diane Dianne Diego Dolores Dominic Don Donald Donna Doris Dorothy Douglas
Duane Dustin Dwayne Dwight Dylan Earl Ebony Eddie Edgar Edith Edna Eduardo Edward Edwin Eileen Elaine Eleanor Elena Eli Elias Elijah
Elisa Elizabeth Ella Ellen Elliot Elsie Emily Emma Emmanuel Enrique Eric Erica Erik Erika Erin Ernest Ernesto Esther Ethan Eugene Eva
Evan Evelyn Everett Fatima Felicia Felix Fernando Florence Floyd Frances Francis Francisco Frank Franklin Fred Freda Freddie Frederick
Gabriel Gabriela Gabrielle Gail Gary Gavin Gene Geneva Genevieve Geoffrey George Georgia Gerald Geraldine Gerardo Gina Ginger Gladys
Glen Glenda Glenn Gloria Gordon Grace Gregory Greg Guadalupe Gwendolyn Hailey Haley Hannah Harold Harriet Harry Harvey Hayden Heather
Hector Heidi Helen Henry Herbert Herman Hilda Holly Howard Hugh Hugo Hunter Ian Ida Irene Iris Isaac Isabel Isabella Isaiah Ismael Ivan
Jack Jackie Jacob Jacqueline Jacquelyn Jaime Jake Jamal James Jamie Jan Jane Janet Janice Jared Jasmine Jason Javier Jay Jean Jeanette
Jeanne Jeff Jeffery Jeffrey Jenna Jennifer Jenny Jeremiah Jeremy Jerome Jerry Jesse Jessica Jessie Jesus Jill Jillian Jim Jimmy Jo Joan
Joann Joanna Joanne Jocelyn Jodi Jody Joe Joel Johanna John Johnny Jon Jonathan Jordan Jorge Jose Joseph Josephine Joshua Josiah Joy
Joyce Juan Juanita Judith Judy Julia Julian Julie Julio Justin Kaitlyn Kara Karen Kari Karina Karl Karla Kate Katelyn Katherine Kathleen
Kathryn Kathy Katie Katrina Kay Kayla Keith Kelli Kelly Kelsey Ken Kendra Kenneth Kenny Kent Kerry Kevin Kim Kimberly Kirk Kristen
Kristi Kristin Kristina Kristy Krystal Kurt Kyle Kylie Lance Larry Latasha Latoya Laura Lauren Laurie Lawrence Leah Lee Leigh Lena
Leo Leon Leonard Leroy Leslie Lester Leticia Lewis Liam Lillian Lily Linda Lindsay Lindsey Lisa Lloyd Logan Lois Lonnie Lorena Lorenzo
Loretta Lori Lorraine Louis Louise Lucas Lucia Lucille Lucy Luis Luke Lydia Lynda Lynn Mabel Mackenzie Madeline Madison Maggie Malik
Mandy Manuel Marc Marcia Marco Marcus Margaret Margarita Maria Marian Marie Marilyn Mario Marion Marisa Marissa Marjorie Marlene Marsha
Marshall Martha Martin Marvin Mary Mason Mathew Matthew Maureen Maurice Max Maxine Megan Meghan Melanie Melinda Melissa Melody Melvin
Mercedes Meredith Mia Micheal Michael Michele Michelle Miguel Mike Mildred Miranda Miriam Misty Mitchell Molly Monica Monique Morgan
Muhammad Mohammed Myra Myrtle Nancy Naomi Natalie Natasha Nathan Nathaniel Neil Nelson Nicholas Nichole Nick Nicole Nina Noah Noel
Nora Norma Norman Olga Oliver Olivia Omar Oscar Owen Pablo Paige Pamela Patricia Patrick Patsy Patty Paul Paula Pauline Pearl Pedro
Peggy Penny Percy Peter Phil Philip Phillip Phyllis Priscilla Rachel Rafael Ralph Ramon Ramona Randall Randy Raquel Raul Ray Raymond
Rebecca Regina Reginald Renee Ricardo Richard Rick Ricky Riley Rita Robert Roberta Roberto Robin Rochelle Rodney Rodolfo Roger Roland
Ronald Ronnie Rosa Rosalie Rosemary Ross Roxanne Roy Ruben Ruby Russell Ruth Ryan Sabrina Sally Salvador Samantha Samuel Sandra Sandy
Santiago Sara Sarah Savannah Scott Sean Sergio Seth Shane Shannon Sharon Shawn Shawna Sheila Shelby Shelley Sherri Sherry Shirley
Sidney Silvia Sofia Sonia Sonya Sophia Spencer Stacey Stacy Stanley Stella Stephanie Stephen Steve Steven Stuart Sue Susan Suzanne
Sydney Sylvia Tamara Tammy Tanya Tara Taylor Teresa Terrance Terrence Terri Terry Thelma Theodore Theresa Thomas Tiffany Tim Timothy
Tina Toby Todd Tom Tommy Toni Tony Tonya Tracey Traci Tracy Travis Trevor Tricia Troy Tyler Tyrone Valerie Vanessa Vera Vernon Veronica
Vicki Vickie Victor Victoria Vincent Viola Violet Virgil Virginia Vivian Wade Walter Wanda Warren Wayne Wendy Wesley Whitney Willard
William Willie Wilma Winston Xavier Yolanda Yvette Yvonne Zachary Zoe
`);

/** Given names that are also ordinary words or places: a name only with more evidence than the list. */
export const AMBIGUOUS_FIRST_NAMES = list(`
Will Bill Mark Grant Hope Faith Joy Rose May June April August Dawn Summer Autumn Page Paige Chase Hunter Cash Rich Art Bob Pat Sue
Virginia Georgia Dallas Austin Jordan Lincoln Washington Jackson Madison Sydney Victoria Carol Frank Guy Ray Earl Dean Sterling Royal
Ivy Lily Iris Daisy Holly Ruby Pearl Amber Crystal Angel Destiny Trinity Miles Wade Reed Lane Dale Glen Rod Don Gene Penny Sandy Chance
Christian Jesus Major Price King Prince Duke Baker Carter Cooper Porter Mason Taylor Parker Spencer Jan Kay Lee Jo Tom
`);

export const SURNAMES = list(`
Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor Moore
Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen
Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards
Collins Reyes Stewart Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim Cox
Ward Richardson Watson Brooks Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long Ross
Foster Jimenez Powell Jenkins Perry Russell Sullivan Bell Coleman Butler Henderson Barnes Gonzales Fisher Vasquez Simmons Romero Jordan
Patterson Alexander Hamilton Graham Reynolds Griffin Wallace Moreno West Cole Hayes Bryant Herrera Gibson Ellis Tran Medina Aguilar
Stevens Murray Ford Castro Marshall Owens Harrison Fernandez McDonald Woods Washington Kennedy Wells Vargas Henry Chen Freeman Webb
Tucker Guzman Burns Crawford Olson Simpson Porter Hunter Gordon Mendez Silva Shaw Snyder Mason Dixon Munoz Hunt Hicks Holmes Palmer
Wagner Black Robertson Boyd Rose Stone Salazar Fox Warren Mills Meyer Rice Schmidt Garza Daniels Ferguson Nichols Stephens Soto Weaver
Ryan Gardner Payne Grant Dunn Kelley Spencer Hawkins Arnold Pierce Vazquez Hansen Peters Santos Hart Bradley Knight Elliott Cunningham
Duncan Armstrong Hudson Carroll Lane Riley Andrews Alvarado Ray Delgado Berry Perkins Hoffman Johnston Matthews Pena Richards Contreras
Willis Carpenter Lawrence Sandoval Guerrero George Chapman Rios Estrada Ortega Watkins Greene Nunez Wheeler Valdez Harper Burke Larson
Santiago Maldonado Morrison Franklin Carlson Austin Dominguez Carr Lawson Jacobs OBrien O'Brien Lynch Singh Vega Bishop Montgomery
Oliver Jensen Harvey Williamson Gilbert Dean Sims Espinoza Howell Li Wong Reid Hanson Le McCoy Garrett Burton Fuller Wang Weber Welch
Rojas Lucas Marquez Fields Park Yang Little Banks Padilla Day Walsh Bowman Schultz Luna Fowler Mejia Davidson Acosta Brewer May Holland
Juarez Newman Pearson Curtis Cortez Douglas Schneider Joseph Barrett Navarro Figueroa Keller Avila Wade Molina Stanley Hopkins Campos
Barnett Bates Chambers Caldwell Beck Lambert Miranda Byrd Craig Ayala Lowe Frazier Powers Neal Leonard Gregory Carrillo Sutton Fleming
Rhodes Shelton Schwartz Norris Jennings Watts Duran Walters Cohen McDaniel Moran Parks Steele Vaughn Becker Holt Deleon Barker Terry
Hale Leon Hail Benson Haynes Horton Miles Lyons Pham Graves Bush Thornton Wolfe Warner Cabrera McKinney Mann Zimmerman Dawson Lara
Fletcher Page McCarthy Love Robles Cervantes Solis Erickson Reeves Chang Klein Salinas Fuentes Baldwin Daniel Simon Velasquez Hardy
Higgins Aguirre Lin Cummings Chandler Sharp Barber Bowen Ochoa Dennis Robbins Liu Ramsey Francis Griffith Paul Blair OConnor Cardenas
Pacheco Cross Calderon Quinn Moss Swanson Chan Rivas Khan Rodgers Serrano Fitzgerald Rosales Stevenson Christensen Manning Gill Curry
McLaughlin Harmon McGee Gross Doyle Garner Newton Burgess Reese Walton Blake Trujillo Adkins Brady Goodman Roman Webster Goodwin
Fischer Huang Potter Delacruz Montoya Todd Wu Hines Mullins Castaneda Malone Cannon Tate Mack Sherman Hubbard Hodges Zhang Guerra Wolf
Valencia Saunders Franco Rowe Gallagher Farmer Hammond Hampton Townsend Ingram Wise Gallegos Clarke Barton Schroeder Maxwell Waters
Logan Camacho Strickland Norman Person Colon Parsons Frank Harrington Glover Osborne Buchanan Casey Floyd Patton Ibarra Ball Tyler
Suarez Bowers Orozco Salas Cobb Gibbs Andrade Bauer Conner Moody Escobar McGuire Lloyd Mueller Hartman French Kramer McBride Pope
Lindsey Velazquez Norton McCormick Sparks Flynn Yates Hogan Marsh Macias Villanueva Zamora Pratt Stokes Owen Ballard Lang Brock
Villarreal Charles Drake Barrera Cain Patrick Pineda Burnett Mercado Santana Shepherd Bautista Ali Shaffer Lamb Trevino McKenzie Hess
Beil Olsen Cochran Morton Nash Wilkins Petersen Briggs Shah Roth Nicholson Holloway Lozano Rangel Flowers Hoover Short Arias Mora
Valenzuela Bryan Meyers Weiss Underwood Bass Greer Summers Houston Carson Morrow Clayton Whitaker Decker Yoder Collier Zuniga Carey
Wilcox Melendez Poole Roberson Larsen Conley Davenport Copeland Massey Lam Huff Rocha Cameron Jefferson Hood Monroe Anthony Pittman
Huynh Randall Singleton Kirk Combs Mathis Christian Skinner Bradford Richard Galvan Wall Boone Kirby Wilkinson Bridges Bruce Atkinson
Velez Meza Roy Vincent York Hodge Villa Abbott Allison Tapia Gates Chase Sosa Sweeney Farrell Wyatt Dalton Horn Barron Phelps Yu
Dickerson Heath Foley Atkins Mathews Bonilla Acevedo Benitez Zavala Hensley Glenn Cisneros Harrell Shields Rubio Choi Huffman Boyer
Garrison Arroyo Bond Kane Hancock Callahan Dillon Cline Wiggins Grimes Arellano Melton ONeill Savage Ho Beltran Pitts Parrish Ponce
Rich Booth Koch Golden Ware Brennan McDowell Marks Cantu Humphrey Baxter Sawyer Clay Tanner Hutchinson Kaur Berg Wiley Gilmore Russo
Villegas Hobbs Keith Wilkerson Ahmed Beard McClain Montes Mata Rosario Vang Walter Henson ONeal Mosley McClure Beasley Stephenson
Snow Huerta Preston Vance Barry Johns Eaton Blackwell Dyer Prince Macdonald Solomon Guevara Stafford English Hurst Woodard Cortes
Shannon Kemp Nolan McCullough Merritt Murillo Moon Salgado Strong Kline Cordova Barajas Roach Rosas Winters Jacobson Lester Knox
Bullock Kerr Leach Meadows Orr Davila Whitehead Pruitt Kent Conway McKee Barr David Dejesus Marin Berger McIntyre Blankenship Gaines
Palacios Cuevas Bartlett Durham Dorsey McCall ODonnell Stein Browning Stout Lowery Sloan McLean Hendricks Calhoun Sexton Chung
Gentry Hull Duarte Ellison Nielsen Gillespie Buck Middleton Sellers Leblanc Esparza Hardin Bradshaw McIntosh Howe Livingston Frost
Glass Morse Knapp Herman Stark Bravo Noble Spears Weeks Corona Frederick Buckley McFarland Hebert Enriquez Hickman Quintero Randolph
Schaefer Walls Trejo House Reilly Pennington Michael Conrad Giles Benjamin Crosby Fitzpatrick Donovan Mays Mahoney Valentine Raymond
Medrano Hahn McMillan Small Bentley Felix Peck Lucero Boyle Hanna Pace Rush Hurley Harding McConnell Bernal Nava Ayers Everett Ventura
Avery Pugh Mayer Bender Shepard McMahon Landry Case Sampson Moses Magana Blackburn Dunlap Gould Duffy Vaughan Herring McKay Espinosa
Rivers Farley Bernard Ashley Friedman Potts Truong Costa Correa Blevins Nixon Clements Fry Delarosa Best Benton Lugo Portillo Dougherty
Crane Haley Phan Villalobos Blanchard Horne Finley Quintana Lynn Esquivel Bean Dodson Mullen Xiong Hayden Cano Levy Huber Richmond
Moyer Lim Frye Sheppard McCarty Avalos Booker Waller Parra Woodward Jaramillo Krueger Rasmussen Brandt Peralta Donaldson Stuart Faulkner
Maynard Galindo Coffey Estes Sanford Burch Maddox Vo OConnell Vu Andersen Spence McPherson Church Schmitt Stanton Leal Cherry Compton
Dudley Sierra Pollard Alfaro Hester Proctor Lu Hinton Novak Good Madden McCann Terrell Jarvis Dickson Reyna Cantrell Mayo Branch
Hendrix Rollins Rowland Whitney Duke Odom Daugherty Travis Tang Archer
`);

/** Words before a name that make the following capitalised words a person's name. */
export const TITLES = list(`
Mr Mrs Ms Miss Mx Dr Prof Professor Sir Madam Dame Lord Lady Rev Reverend Fr Father Sister Brother Pastor Rabbi Imam Hon Honorable
Judge Justice Sen Senator Rep Representative Gov Governor Mayor Councilman Councilwoman Councilmember Commissioner Officer Ofc Detective
Det Sgt Sergeant Lt Lieutenant Capt Captain Cpt Maj Major Col Colonel Gen General Cpl Corporal Pvt Private Agent SA Deputy Dep Sheriff
Trooper Tpr Inspector Insp Chief Marshal Warden Ranger Investigator Inv Attorney Atty Counsel Counselor Nurse Supervisor Director
`);

/** Role nouns: never part of a name themselves (a name may follow them; see the role cues in names.ts). */
export const ROLE_WORDS = list(`
Patient Inmate Suspect Victim Witness Complainant Plaintiff Defendant Petitioner Respondent Appellant Claimant Requester Requestor
Applicant Employee Manager Secretary Clerk Dispatcher Firefighter Paramedic Technician Analyst Specialist Coordinator Special
`);

/** Capitalised words that end or break a name: organisations, places, calendar words, document words, sentence starters. */
export const NOT_NAME_WORDS = list(`
The A An This That These Those There Here It Its In On At For From To Of By With Without And Or But Nor If When While Where Which Who
Whom Whose What Why How As Also Then Than So Such Some Any All Each Every Both Either Neither No Not Yes Please Thank Thanks Dear Re
Subject Sincerely Regards Respectfully Yours Best Cordially Enclosure Enclosures Attachment Attachments Cc Bcc Attn Note Notes Page
Pages Total Date Time Name Names Address Phone Email Fax Tel Mobile Cell Signature Signed Title Number No Nos Case File Report Record
Records Request Requests Response Exhibit Appendix Section Article Chapter Part Item Table Figure Form Forms Memo Memorandum Letter
Notice Order Policy Procedure Summary Statement Incident Complaint Investigation Interview Review Decision Determination Appeal
Department Dept Office Bureau Agency Division Unit Branch Service Services Administration Commission Committee Council Board Authority
Center Centre Institute Foundation Association Society Union Corporation Corp Company Co Inc Incorporated LLC Ltd LLP Group Partners
Bank Trust Fund Program Project Team University College School Academy Hospital Clinic Medical Health Police Fire Sheriff's Court
Courts District Circuit Supreme Federal State States United National Public Private General County City Town Village Township Borough
Municipal Regional Central Northern Southern Eastern Western North South East West Northeast Northwest Southeast Southwest Street St
Avenue Ave Road Rd Boulevard Blvd Lane Drive Suite Floor Building Room Hall Park Plaza Square Highway Route Box Station Airport Port
River Lake Mount Mountain Valley Beach Island Bay Harbor Creek Hills Heights Springs Falls America American Americans USA US U.S.
January February March April May June July August September October November December Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct
Nov Dec Monday Tuesday Wednesday Thursday Friday Saturday Sunday Mon Tue Tues Wed Thu Thur Thurs Fri Sat Sun Today Tomorrow Yesterday
Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Hawaii Idaho Illinois Indiana Iowa Kansas Kentucky
Louisiana Maine Maryland Massachusetts Michigan Minnesota Mississippi Missouri Montana Nebraska Nevada Hampshire Jersey Mexico York
Carolina Dakota Ohio Oklahoma Oregon Pennsylvania Rhode Island Tennessee Texas Utah Vermont Wisconsin Wyoming Columbia Puerto Rico
Washington Boston Chicago Houston Phoenix Philadelphia Seattle Denver Atlanta Miami Detroit Portland Baltimore Springfield Arlington
FOIA Freedom Information Act Privacy Exemption Exemptions Confidential Classified Unclassified Secret Redacted Withheld Released
Internal Revenue Social Security Medicare Medicaid Homeland Defense Justice Treasury Commerce Labor Energy Education Transportation
Agriculture Interior Veterans Affairs Environmental Protection Congress Senate House Representatives Governor Mayor Judge Officer
Inc. Co. Corp. Ltd. Jr Sr II III IV PhD MD Esq Esquire CPA RN DDS
I We You He She They Our Your Their His Her My Me Us Them
Contact Call Calls Called Meeting Meetings Minutes Agenda Budget Contract Contracts Invoice Payment Account Accounts Card Credit
Total Amount Balance Tax Income Employer Employee Employees Staff Personnel Human Resources Manager Supervisor Director Chief
Received Sent Reviewed Approved Denied Submitted Filed Issued Dated Attached Enclosed Following Regarding Concerning Pursuant
Accordingly However Therefore Furthermore Moreover Additionally Finally First Second Third Next Last Prior Previous Current New Old
Vehicle Vehicles Ford Toyota Honda Chevrolet Nissan Model License Licence Plate Passport Driver Drivers Birth Born Security Routing
Mr Mrs Ms Dr
`);

/**
 * Prepositions and conjunctions: closed-class words that open sentences ("Under Linux, the …", "Unlike
 * Python …") and never begin a person's name (Per, a Nordic given name, is left out). Written for this project.
 */
export const CLOSED_CLASS_WORDS = list(`
About Above After Against Along Among Around Before Behind Below Beneath Beside Besides Between Beyond Despite During Except
Inside Into Like Near Off Onto Over Since Through Throughout Toward Towards Under Underneath Unlike Until Upon Via Within Although
Because Though Unless Whereas Whether Thus Hence
`);
for (const word of CLOSED_CLASS_WORDS) NOT_NAME_WORDS.add(word);

/** Words that, when they follow a capitalised sequence, show it names an organisation or place. */
export const ORGANISATION_WORDS = list(`
Department Dept Office Bureau Agency Division Administration Commission Committee Council Board Authority Center Centre Institute
Foundation Association Society Union Corporation Corp Company Co Inc Incorporated LLC Ltd LLP Group Partners Bank Trust Fund Program
University College School Academy Hospital Clinic County City Town Village Township Borough Street St Avenue Ave Road Rd Boulevard
Blvd Lane Drive Park Plaza Square Highway Building Hall Church Library Museum Memorial Airport Station Court Courthouse Bridge
`);
